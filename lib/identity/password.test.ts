import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_PASSWORD_HASH_COST, dummyHash, hashPassword, passwordHashCost, verifyPassword } from "./password";

const previous = process.env.PASSWORD_HASH_COST;
afterEach(() => {
  if (previous === undefined) delete process.env.PASSWORD_HASH_COST;
  else process.env.PASSWORD_HASH_COST = previous;
});

describe("password hashing cost", () => {
  it("is 11 unless PASSWORD_HASH_COST names a whole number from 4 to 15", () => {
    for (const value of [undefined, "", "3", "16", "10.5", "eleven", " "]) {
      if (value === undefined) delete process.env.PASSWORD_HASH_COST;
      else process.env.PASSWORD_HASH_COST = value;
      expect(passwordHashCost(), String(value)).toBe(DEFAULT_PASSWORD_HASH_COST);
    }
    expect(DEFAULT_PASSWORD_HASH_COST).toBe(11);
    process.env.PASSWORD_HASH_COST = "4";
    expect(passwordHashCost()).toBe(4);
    process.env.PASSWORD_HASH_COST = "13";
    expect(passwordHashCost()).toBe(13);
  });

  it("makes hashes at the current cost; a hash made at another cost still verifies", async () => {
    process.env.PASSWORD_HASH_COST = "5";
    const atFive = await hashPassword("correct horse battery");
    expect(atFive).toMatch(/^\$2[aby]\$05\$/);
    process.env.PASSWORD_HASH_COST = "4";
    expect(await hashPassword("correct horse battery")).toMatch(/^\$2[aby]\$04\$/);
    expect(await verifyPassword("correct horse battery", atFive)).toBe(true);
    expect(await verifyPassword("wrong horse battery", atFive)).toBe(false);
  });

  it("compares an unknown e-mail against a dummy hash of the current cost that no password matches", async () => {
    process.env.PASSWORD_HASH_COST = "4";
    const dummy = await dummyHash();
    expect(dummy).toMatch(/^\$2[aby]\$04\$/);
    expect(await dummyHash()).toBe(dummy);
    expect(await verifyPassword("", dummy)).toBe(false);
  });
});
