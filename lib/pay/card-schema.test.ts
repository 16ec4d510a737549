import { describe, expect, it } from "vitest";
import { cardSchema, parseExpiry, passesLuhn } from "./card-schema";

const now = new Date("2026-11-24T03:00:00Z");
const withCvc = cardSchema({ takesCvc: true, now });
const withoutCvc = cardSchema({ takesCvc: false, now });
const valid = { number: "4242 4242 4242 4242", expiry: "12/30", cvc: "123", holder: " Ada Lovelace " };

function fieldErrors(result: ReturnType<typeof withCvc.safeParse>) {
  return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join("."), issue.message]));
}

describe("cardSchema (hosted page card form)", () => {
  it("turns valid input into the card the provider call takes", () => {
    expect(withCvc.parse(valid)).toEqual({ number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, cvc: "123", holder: "Ada Lovelace" });
  });

  it("accepts the current month (valid through its last day) and refuses the month before", () => {
    expect(withCvc.safeParse({ ...valid, expiry: "11/26" }).success).toBe(true);
    expect(fieldErrors(withCvc.safeParse({ ...valid, expiry: "10/26" }))).toEqual({ expiry: "This card has expired." });
  });

  it.each(["1/2", "13/30", "00/30", "12-30", "1230", ""])("refuses the expiry %j", (expiry) => {
    expect(fieldErrors(withCvc.safeParse({ ...valid, expiry })).expiry).toBe("Enter the expiry date as MM/YY, e.g. 04/29.");
  });

  it("refuses a number that fails the Luhn check, has letters, or the wrong length", () => {
    expect(fieldErrors(withCvc.safeParse({ ...valid, number: "4242424242424241" })).number).toBe("This card number is not valid: check the digits.");
    expect(fieldErrors(withCvc.safeParse({ ...valid, number: "4242abcd42424242" })).number).toBe("The card number may contain digits only.");
    expect(fieldErrors(withCvc.safeParse({ ...valid, number: "42424242" })).number).toBe("The card number has 12 to 19 digits.");
    expect(fieldErrors(withCvc.safeParse({ ...valid, number: "" })).number).toBe("Enter the card number.");
  });

  it("never repeats the typed card number in a message", () => {
    const result = withCvc.safeParse({ ...valid, number: "4242424242424241" });
    expect(JSON.stringify(fieldErrors(result))).not.toContain("4242424242424241");
    expect(JSON.stringify(result.error?.issues)).not.toContain("4242424242424241");
  });

  it("requires a CVC of 3 or 4 digits when the provider takes one", () => {
    expect(withCvc.safeParse({ ...valid, cvc: "1234" }).success).toBe(true);
    for (const cvc of ["12", "12345", "abc", ""]) {
      expect(fieldErrors(withCvc.safeParse({ ...valid, cvc })).cvc).toBe("Enter the 3 or 4 digit CVC.");
    }
    const { cvc: _cvc, ...noCvc } = valid;
    expect(fieldErrors(withCvc.safeParse(noCvc)).cvc).toBe("Enter the 3 or 4 digit CVC.");
  });

  it("asks no CVC and drops one sent anyway when the provider takes none (Provider D)", () => {
    const { cvc: _cvc, ...noCvc } = valid;
    expect(withoutCvc.parse(noCvc)).toEqual({ number: "4242424242424242", expiryMonth: 12, expiryYear: 2030, holder: "Ada Lovelace" });
    expect(withoutCvc.parse(valid)).not.toHaveProperty("cvc");
  });

  it("wants a cardholder name of 2 to 100 characters", () => {
    expect(fieldErrors(withCvc.safeParse({ ...valid, holder: " A " })).holder).toBe("Enter the name on the card (2 to 100 characters).");
    expect(fieldErrors(withCvc.safeParse({ ...valid, holder: "x".repeat(101) })).holder).toBe("Enter the name on the card (2 to 100 characters).");
    expect(withCvc.safeParse({ ...valid, holder: "x".repeat(100) }).success).toBe(true);
  });

  it("reports every field at once", () => {
    expect(Object.keys(fieldErrors(withCvc.safeParse({})))).toEqual(["number", "expiry", "cvc", "holder"]);
  });
});

describe("passesLuhn and parseExpiry", () => {
  it("checks the Luhn digit", () => {
    expect(passesLuhn("4000000000000002")).toBe(true);
    expect(passesLuhn("4000000000000001")).toBe(false);
  });

  it("reads MM/YY with spaces around the slash", () => {
    expect(parseExpiry("04 / 29")).toEqual({ month: 4, year: 2029 });
  });
});
