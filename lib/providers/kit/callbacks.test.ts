import { describe, expect, it } from "vitest";
import { z } from "zod";
import { hmac, unixSeconds } from "./callback-scheme";
import { refuseCallback, verifySignedCallback, type SignedCallbackScheme } from "./callbacks";

const now = 1_700_000_000;
const eventSchema = z.object({ id: z.string(), ref: z.string() });

/** A scheme as small as one can be: HMAC of `${id}.${t}.${body}` with the credential `secret`. */
const scheme: SignedCallbackScheme<z.infer<typeof eventSchema>> = {
  read: (headers) => ({ id: headers.get("x-id") ?? "", timestamp: unixSeconds(headers.get("x-t")), signature: headers.get("x-sig") ?? "" }),
  verify: ({ id, timestamp, signature, rawBody }, credentials) =>
    credentials.secret === "no key"
      ? refuseCallback("no_verification_key", "no key configured")
      : signature === hmac("sha256", String(credentials.secret), `${id}.${timestamp}.${rawBody}`),
  body: eventSchema,
  notItsShape: "not a test event",
  idInBody: { of: (event) => event.id, differs: "id differs from x-id" },
  report: (event) => ({ about: "attempt", merchantReference: event.ref, outcome: { kind: "unknown", message: "test" } }),
};

function request(rawBody: string, { id = "n1", t = now, secret = "s" }: { id?: string; t?: number; secret?: string } = {}) {
  const headers = new Headers({ "x-id": id, "x-t": String(t), "x-sig": hmac("sha256", secret, `${id}.${t}.${rawBody}`) });
  return { headers, rawBody };
}

const verify = (req: { headers: Headers; rawBody: string }, secret = "s") => verifySignedCallback(scheme, req, { secret }, { mode: "test", now });

describe("verifySignedCallback: one order of checks for every provider", () => {
  it("accepts a signed, fresh notification of the right shape and reads id and time from the headers", () => {
    expect(verify(request(JSON.stringify({ id: "n1", ref: "att_1" })))).toEqual({
      ok: true,
      notification: {
        notificationId: "n1",
        occurredAt: new Date(now * 1000),
        about: "attempt",
        merchantReference: "att_1",
        outcome: { kind: "unknown", message: "test" },
      },
    });
  });

  it("refuses a missing signature before anything else, even a missing key", () => {
    const req = request("{}");
    req.headers.delete("x-sig");
    expect(verify(req, "no key")).toEqual({ ok: false, status: 401, reason: "missing signature" });
    expect(verify({ headers: new Headers({ "x-id": "n1", "x-t": "soon", "x-sig": "x" }), rawBody: "{}" })).toEqual({
      ok: false,
      status: 401,
      reason: "missing signature",
    });
  });

  it("passes the scheme's own refusal through (no key to verify with)", () => {
    expect(verify(request("{}"), "no key")).toEqual({ ok: false, status: 401, reason: "no key configured" });
  });

  it("refuses a signature that does not verify before looking at the time, and a stale time before the body", () => {
    expect(verify(request("not json", { t: now - 3600, secret: "other" }))).toEqual({ ok: false, status: 401, reason: "invalid signature" });
    expect(verify(request("not json", { t: now - 3600 }))).toEqual({ ok: false, status: 401, reason: "stale timestamp" });
    expect(verify(request("not json", { t: now + 301 }))).toEqual({ ok: false, status: 401, reason: "stale timestamp" });
  });

  it("answers 400 malformed for another shape or an id in the body that differs from the header's", () => {
    expect(verify(request("not json"))).toEqual({ ok: false, status: 400, reason: "malformed: not a test event" });
    expect(verify(request(JSON.stringify({ id: "n2", ref: "att_1" })))).toEqual({ ok: false, status: 400, reason: "malformed: id differs from x-id" });
  });
});
