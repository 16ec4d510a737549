import { describe, expect, it } from "vitest";
import { pathToField, pointerToField } from "./pointers";

describe("pointerToField", () => {
  it.each([
    ["/data/type", "direction"],
    ["/data/attributes/amount", "amount"],
    ["/data/attributes/reference_id", "reference_id"],
    ["/data/attributes/test_mode", "test_mode"],
    ["/data/attributes/service", "service"],
    ["/data/attributes/currency", "currency"],
    ["/data/attributes/commerce_account", "commerce_account"],
    ["/data/attributes/flow", "flow"],
    ["/data/attributes/options/attempts_limit", "options.attempts_limit"],
    ["/data/attributes/options/bypass_hpp", "options.bypass_hpp"],
    ["/data/attributes/fields/card_number", "card_number"],
    ["/data/attributes/service_fields", "service_fields"],
    ["/data/attributes/service_fields/3", "service_fields"],
    ["/data/attributes/gateway_options/cardgate/tokenize", "tokenize"],
    ["/data/attributes/customer/email", "customer.email"],
    ["/data/attributes/customer/address/country", "customer.address.country"],
    ["/data/customer/phone", "customer.phone"],
    ["/data/attributes/gateway_options/customer/date_of_birth", "customer.date_of_birth"],
    ["/data/customer/constants/customer_country_phone_code", "customer.constants.customer_country_phone_code"],
    ["/data/customer", "customer_placement"],
    ["/data/attributes/gateway_options/customer", "customer_placement"],
    ["/data/attributes/customer/loyalty", "customer_placement"],
  ])("%s → %s", (pointer, field) => {
    expect(pointerToField(pointer)).toBe(field);
  });

  it.each(["/data", "", "/data/attributes", "/data/attributes/test_mod", "/data/attributes/options/unknown", "/data/meta", "/errors", "data/type"])(
    "%j has no input of its own",
    (pointer) => {
      expect(pointerToField(pointer)).toBeUndefined();
    },
  );

  it("unescapes RFC 6901 segments", () => {
    expect(pointerToField("/data/attributes/customer/a~1b")).toBe("customer_placement");
  });
});

describe("pathToField", () => {
  it("maps a problem's path from the document root like its pointer", () => {
    expect(pathToField(["data", "attributes", "options", "attempts_limit"])).toBe("options.attempts_limit");
    expect(pathToField(["data", "attributes", "service_fields", 3])).toBe("service_fields");
    expect(pathToField(["data", "customer", "a/b"])).toBe("customer_placement");
    expect(pathToField(["attributes", "amount"])).toBeUndefined();
    expect(pathToField([])).toBeUndefined();
  });
});
