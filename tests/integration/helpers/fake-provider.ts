import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type {
  AdapterContext,
  DisputeActionOutcome,
  DisputeReport,
  DisputeStatusOutcome,
  HealthResult,
  ProviderAdapter,
  ProviderOutcome,
  RefundOutcome,
} from "@/lib/providers/kit/adapter";
import { callProvider } from "@/lib/providers/kit/provider-http";
import type { ProviderCallbacks, ProviderServer } from "@/lib/providers/kit/provider-server";
import { registerProviderServer } from "@/lib/providers/server/servers";
import { afterAll, beforeAll } from "vitest";
import { registerProviderZ } from "../../fixtures/provider-z/register";

/**
 * A stand-in provider for the engine's tests: a real HTTP server on 127.0.0.1 (so exchanges are
 * recorded and redacted exactly as with a sandbox) behind an adapter whose outcomes the test
 * scripts per connection. Every provider call is counted.
 */
type FakeCall = {
  op: "payment" | "payout" | "status" | "refund" | "refund-status" | "dispute-submit" | "dispute-accept" | "dispute-status";
  connectionId: string;
  idempotencyKey: string;
  providerReference?: string;
  amountMinor?: bigint;
};

export type FakeProvider = {
  server: (slug: string) => ProviderServer;
  /** Outcomes of create calls, taken in order per connection; a full success once used up. */
  script: Map<string, ProviderOutcome[]>;
  /** Outcomes of status requests, in order; a full success once used up. */
  statusScript: ProviderOutcome[];
  /** Outcomes of refund calls, in order; a success once used up. */
  refundScript: RefundOutcome[];
  /** Outcomes of refund status requests, in order; a success once used up. */
  refundStatusScript: RefundOutcome[];
  /**
   * Disputes the fake provider knows, by its reference: what a dispute status request answers
   * (not_found for any other), and what Submit and Accept answer taken (under_review, accepted).
   */
  disputes: Map<string, DisputeReport>;
  /** Outcomes of Submit and Accept, in order; the taken answer above once used up. */
  disputeScript: DisputeActionOutcome[];
  /** Outcomes of dispute status requests, in order; the known dispute once used up. */
  disputeStatusScript: DisputeStatusOutcome[];
  health: { result: HealthResult | "throw" };
  calls: FakeCall[];
  /** Every raw request body the fake HTTP server received. */
  received: string[];
  /** Milliseconds a create call waits before answering (the concurrency test). */
  delayMs: number;
  /** When set, a create call answers only once this settles: the test holds the provider while it does something else. */
  hold: Promise<void> | undefined;
  baseUrl: string;
  reset(): void;
  close(): Promise<void>;
};

export const success = (amountMinor: bigint, reference = "fake-ref"): ProviderOutcome => ({
  kind: "succeeded",
  providerReference: reference,
  processedAmountMinor: amountMinor,
});

async function startFakeProvider(): Promise<FakeProvider> {
  const received: string[] = [];
  const http: Server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    request.on("end", () => {
      received.push(body);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ received: body ? JSON.parse(body) : null }));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;

  const fake: FakeProvider = {
    script: new Map(),
    statusScript: [],
    refundScript: [],
    refundStatusScript: [],
    disputes: new Map(),
    disputeScript: [],
    disputeStatusScript: [],
    health: { result: { kind: "ok", message: "reachable and credentials accepted" } },
    calls: [],
    received,
    delayMs: 0,
    hold: undefined,
    baseUrl: `http://127.0.0.1:${port}`,
    server: (slug) => ({ slug, adapter, sandbox: async () => new Response(null, { status: 404 }), callbacks: fakeCallbacks }),
    reset() {
      fake.script.clear();
      fake.statusScript.length = 0;
      fake.refundScript.length = 0;
      fake.refundStatusScript.length = 0;
      fake.disputes.clear();
      fake.disputeScript.length = 0;
      fake.disputeStatusScript.length = 0;
      fake.calls.length = 0;
      received.length = 0;
      fake.delayMs = 0;
      fake.hold = undefined;
      fake.health.result = { kind: "ok", message: "reachable and credentials accepted" };
    },
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };

  async function create(op: "payment" | "payout", context: AdapterContext, body: Record<string, unknown>, key: string, amountMinor: bigint) {
    fake.calls.push({ op, connectionId: context.connectionId, idempotencyKey: key });
    await callProvider(context, {
      method: "POST",
      path: `/${op}s`,
      headers: { authorization: `Bearer ${String(context.credentials.api_secret ?? "")}` },
      body,
    });
    if (fake.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
    if (fake.hold) await fake.hold;
    return fake.script.get(context.connectionId)?.shift() ?? success(amountMinor);
  }

  const adapter: ProviderAdapter = {
    createPayment: (context, instruction) =>
      create(
        "payment",
        context,
        { amount: instruction.amount, card: instruction.card.number, cvc: instruction.card.cvc, key: instruction.idempotencyKey },
        instruction.idempotencyKey,
        instruction.amountMinor,
      ),
    createPaymentWithoutCard: (context, instruction) =>
      create(
        "payment",
        context,
        { amount: instruction.amount, key: instruction.idempotencyKey, bypass: true },
        instruction.idempotencyKey,
        instruction.amountMinor,
      ),
    createPayout: (context, instruction) =>
      create(
        "payout",
        context,
        { amount: instruction.amount, card: instruction.cardNumber, split: instruction.splitMode, key: instruction.idempotencyKey },
        instruction.idempotencyKey,
        instruction.amountMinor,
      ),
    getStatus: async (context, query) => {
      fake.calls.push({ op: "status", connectionId: context.connectionId, idempotencyKey: query.idempotencyKey, providerReference: query.providerReference });
      await callProvider(context, { method: "POST", path: "/status", body: { key: query.idempotencyKey } });
      return fake.statusScript.shift() ?? success(0n, "status-ref");
    },
    refund: async (context, instruction) => {
      fake.calls.push({
        op: "refund",
        connectionId: context.connectionId,
        idempotencyKey: instruction.refundId,
        providerReference: instruction.paymentReference,
        amountMinor: instruction.amountMinor,
      });
      await callProvider(context, {
        method: "POST",
        path: "/refunds",
        body: { key: instruction.refundId, payment: instruction.paymentReference, amount: instruction.amount },
      });
      if (fake.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
      return fake.refundScript.shift() ?? { kind: "succeeded", providerReference: `fake-refund-${instruction.refundId}` };
    },
    getRefundStatus: async (context, query) => {
      fake.calls.push({ op: "refund-status", connectionId: context.connectionId, idempotencyKey: query.refundId, providerReference: query.providerReference });
      await callProvider(context, { method: "POST", path: "/refund-status", body: { key: query.refundId } });
      return fake.refundStatusScript.shift() ?? { kind: "succeeded", providerReference: `fake-refund-${query.refundId}` };
    },
    disputes: {
      getDispute: async (context, query) => {
        fake.calls.push({ op: "dispute-status", connectionId: context.connectionId, idempotencyKey: query.disputeReference });
        await callProvider(context, { method: "POST", path: "/dispute-status", body: { dispute: query.disputeReference } });
        const scripted = fake.disputeStatusScript.shift();
        if (scripted) return scripted;
        const known = fake.disputes.get(query.disputeReference);
        return known ? { kind: "found", report: known } : { kind: "not_found", message: "no such dispute" };
      },
      submitEvidence: async (context, instruction) => {
        fake.calls.push({
          op: "dispute-submit",
          connectionId: context.connectionId,
          idempotencyKey: instruction.disputeId,
          providerReference: instruction.disputeReference,
        });
        await callProvider(context, {
          method: "POST",
          path: "/dispute-evidence",
          body: {
            key: instruction.disputeId,
            dispute: instruction.disputeReference,
            text: instruction.text,
            files: instruction.files.map((file) => file.sha256),
          },
        });
        if (fake.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, fake.delayMs));
        if (fake.hold) await fake.hold;
        return fake.disputeScript.shift() ?? taken(instruction.disputeReference, "under_review");
      },
      accept: async (context, query) => {
        fake.calls.push({
          op: "dispute-accept",
          connectionId: context.connectionId,
          idempotencyKey: query.disputeId,
          providerReference: query.disputeReference,
        });
        await callProvider(context, { method: "POST", path: "/dispute-accept", body: { key: query.disputeId, dispute: query.disputeReference } });
        return fake.disputeScript.shift() ?? taken(query.disputeReference, "accepted");
      },
    },
    healthCheck: async (context) => {
      if (fake.health.result === "throw") throw new Error("adapter bug");
      await callProvider(context, { method: "POST", path: "/health", body: {} });
      return fake.health.result;
    },
  };
  /** Taken: the known dispute in its new status (kept, so a later status request says the same). */
  function taken(reference: string, status: DisputeReport["status"]): DisputeActionOutcome {
    const known = fake.disputes.get(reference);
    if (!known) return { kind: "refused", code: "closed", message: "no such dispute" };
    const report = { ...known, status };
    fake.disputes.set(reference, report);
    return { kind: "taken", report };
  }
  return fake;
}

/** The secret the fake provider signs its callbacks with (HMAC-SHA256 of the raw body, hex, in x-fake-signature). */
const FAKE_CALLBACK_SECRET = "fake-callback-secret";

export function signFakeCallback(rawBody: string, secret = FAKE_CALLBACK_SECRET): string {
  return createHmac("sha256", secret).update(rawBody).digest("hex");
}

/** A dispute notification as the fake provider writes it: amounts as minor-unit text, the deadline as ISO text. */
export function fakeDisputeCallbackBody(notificationId: string, report: DisputeReport): string {
  return JSON.stringify({
    id: notificationId,
    type: "dispute",
    dispute: { ...report, amountMinor: report.amountMinor.toString(), evidenceDueBy: report.evidenceDueBy.toISOString() },
  });
}

/** The fake's callbacks: dispute notifications only, signed as above; anything else is refused. */
const fakeCallbacks: ProviderCallbacks = {
  headers: ["x-fake-signature"],
  eventFromRecord: () => undefined,
  sign: () => {
    throw new Error("the fake provider's callbacks are written by the tests");
  },
  verify(request) {
    const signature = request.headers.get("x-fake-signature");
    if (!signature) return { ok: false, status: 401, reason: "missing signature" };
    const expected = Buffer.from(signFakeCallback(request.rawBody));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, status: 401, reason: "invalid signature" };
    const body = JSON.parse(request.rawBody) as { id: string; type: string; dispute: Record<string, string> };
    if (body.type !== "dispute") return { ok: false, status: 400, reason: "malformed: not a dispute" };
    const dispute = body.dispute;
    return {
      ok: true,
      notification: {
        notificationId: body.id,
        occurredAt: new Date(),
        about: "dispute",
        providerReference: dispute.disputeReference,
        dispute: {
          disputeReference: dispute.disputeReference!,
          ...(dispute.paymentReference ? { paymentReference: dispute.paymentReference } : {}),
          ...(dispute.paymentKey ? { paymentKey: dispute.paymentKey } : {}),
          amountMinor: BigInt(dispute.amountMinor!),
          currency: dispute.currency!,
          reason: dispute.reason as DisputeReport["reason"],
          providerReason: dispute.providerReason ?? "",
          status: dispute.status as DisputeReport["status"],
          evidenceDueBy: new Date(dispute.evidenceDueBy!),
        },
      },
    };
  },
};

/**
 * The fake provider for a whole test file: started before the file's tests, with APP_URL pointing
 * at it, standing in for the providers named in `replace` (and for the test-only Provider Z,
 * registered too, when `providerZ` is set); everything undone after the file. The returned object
 * is the running fake.
 */
export function setUpFakeProvider(options: { replace: readonly string[]; providerZ?: boolean }): FakeProvider {
  let current: FakeProvider | undefined;
  const undo: (() => void)[] = [];
  const previousAppUrl = process.env.APP_URL;
  beforeAll(async () => {
    current = await startFakeProvider();
    process.env.APP_URL = current.baseUrl;
    if (options.providerZ) undo.push(registerProviderZ(), registerProviderServer(current.server("provider-z")));
    for (const slug of options.replace) undo.push(registerProviderServer(current.server(slug), { replace: true }));
  });
  afterAll(async () => {
    for (const step of undo.reverse()) step();
    if (previousAppUrl === undefined) delete process.env.APP_URL;
    else process.env.APP_URL = previousAppUrl;
    await current?.close();
  });
  return new Proxy({} as FakeProvider, {
    get: (_target, key) => {
      if (!current) throw new Error("the fake provider starts in beforeAll");
      const value: unknown = Reflect.get(current, key);
      return typeof value === "function" ? value.bind(current) : value;
    },
  });
}
