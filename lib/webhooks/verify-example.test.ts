import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { signatureHeader } from "./sign";
import { verifyWebhook } from "./verify-example";

/** The documented verification function (shown verbatim on /docs/webhooks) against the signer. */
describe("verifyWebhook (the docs' function)", () => {
  const body = JSON.stringify({ data: { id: "cpi_1" }, meta: { event_id: "evt_1", event_type: "invoice.status_changed" } });
  const now = 1_760_000_000;

  it("accepts a signature by any listed secret within 5 minutes, and nothing else", () => {
    const header = signatureHeader(["whsec_new", "whsec_old"], body, now);
    expect(header).toMatch(/^t=1760000000,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(verifyWebhook(body, header, "whsec_new", now)).toBe(true);
    expect(verifyWebhook(body, header, "whsec_old", now + 300)).toBe(true);
    expect(verifyWebhook(body, header, "whsec_old", now + 301)).toBe(false);
    expect(verifyWebhook(body, header, "whsec_other", now)).toBe(false);
    expect(verifyWebhook(`${body} `, header, "whsec_new", now)).toBe(false);
    expect(verifyWebhook(body, header.replace("t=1760000000", "t=1760000001"), "whsec_new", now)).toBe(false);
    expect(verifyWebhook(body, "", "whsec_new", now)).toBe(false);
    expect(verifyWebhook(body, "t=1760000000,v1=zz", "whsec_new", now)).toBe(false);
    expect(verifyWebhook(body, "t=abc,v1=00", "whsec_new", now)).toBe(false);
  });

  it("is ten lines of plain TypeScript with no project imports, so a merchant can copy it", () => {
    const source = readFileSync(path.join(__dirname, "verify-example.ts"), "utf8").trimEnd();
    expect(source.split("\n").length).toBeLessThanOrEqual(10);
    expect(source).not.toMatch(/from "[@.]/);
  });
});
