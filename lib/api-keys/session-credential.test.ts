import { beforeAll, describe, expect, it } from "vitest";
import { mintSessionCredential, verifySessionCredential, SESSION_CREDENTIAL_TTL_MS } from "./session-credential";

beforeAll(() => {
  process.env.AUTH_SECRET = "unit-test-secret-0123456789";
});

describe("composer session credential", () => {
  it("carries the merchant and limits support members to test mode", () => {
    const owner = verifySessionCredential(mintSessionCredential({ merchantId: "mer_1", userId: "usr_1", role: "owner" }));
    const support = verifySessionCredential(mintSessionCredential({ merchantId: "mer_1", userId: "usr_2", role: "support" }));
    expect(owner).toMatchObject({ merchantId: "mer_1", testOnly: false });
    expect(support).toMatchObject({ merchantId: "mer_1", testOnly: true });
  });

  it("expires after five minutes", () => {
    const token = mintSessionCredential({ merchantId: "mer_1", userId: "usr_1", role: "owner" }, 0);
    expect(verifySessionCredential(token, SESSION_CREDENTIAL_TTL_MS - 1)).toBeDefined();
    expect(verifySessionCredential(token, SESSION_CREDENTIAL_TTL_MS)).toBeUndefined();
  });

  it("refuses a tampered payload or signature", () => {
    const token = mintSessionCredential({ merchantId: "mer_1", userId: "usr_1", role: "support" });
    const [payload, signature] = token.slice(4).split(".");
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, "base64url").toString()), testOnly: false })).toString("base64url");
    expect(verifySessionCredential(`pos_${forged}.${signature}`)).toBeUndefined();
    expect(verifySessionCredential(`pos_${payload}.${signature!.slice(0, -2)}xx`)).toBeUndefined();
    expect(verifySessionCredential("pos_garbage")).toBeUndefined();
  });
});
