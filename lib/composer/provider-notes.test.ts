import { describe, expect, it } from "vitest";
import { PROVIDERS } from "@/lib/providers";
import { examplesSending, joinNames, providersOfferingPayouts, providersSendingOption } from "./provider-notes";

describe("provider notes for the composer's help texts (spec 2.4, 4.1, 4.2)", () => {
  it("joins names as a sentence does", () => {
    expect(joinNames([])).toBe("");
    expect(joinNames(["A"])).toBe("A");
    expect(joinNames(["A", "B"])).toBe("A and B");
    expect(joinNames(["A", "B", "C"])).toBe("A, B and C");
  });

  it("names who sends what, from the provider folders", () => {
    expect(providersSendingOption("bypass_hpp")).toEqual(["Provider F"]);
    expect(providersSendingOption("allow_partially")).toEqual(PROVIDERS.map((provider) => provider.name));
    expect(providersOfferingPayouts()).toEqual(["Provider A"]);
    expect(examplesSending("service_fields")).toEqual(["Provider C payment in EUR", "Provider D payment", "Provider F payment"]);
    expect(examplesSending("gateway_options.cardgate.tokenize")).toEqual(examplesSending("service_fields"));
    expect(examplesSending("fields.card_number")).toEqual(["Provider A payout"]);
  });
});
