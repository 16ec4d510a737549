import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { DisputeReport } from "@/lib/providers/kit/adapter";
import type { ProviderResponse } from "@/lib/providers/kit/provider-http";
import { readBack, readDisputeAction, readDisputeStatus, refusalOf } from "./dispute-answers";

const answered = (status: number, body: unknown = {}): ProviderResponse => ({
  kind: "answered",
  status,
  headers: new Headers(),
  body,
  text: JSON.stringify(body),
});

// A provider's dispute in miniature: its own words, read back through its tables.
const STATUSES = { needs_response: "open", under_review: "review", won: "won", lost: "lost", accepted: "accepted" } as const;
const REFUSALS = { deadline_passed: "too_late", closed: "not_open" } as const;
const schema = z.object({ id: z.string(), state: z.enum(["open", "review", "won", "lost", "accepted"]), reason: z.string() });
const reportOf = (answer: z.infer<typeof schema>): DisputeReport => ({
  disputeReference: answer.id,
  amountMinor: 100n,
  currency: "EUR",
  reason: readBack(
    { fraudulent: "fraud", not_received: "nr", not_as_described: "nad", duplicate: "dup", credit_not_processed: "cnp", other: "x" },
    answer.reason,
    "other",
  ),
  providerReason: answer.reason,
  status: readBack(STATUSES, answer.state, "needs_response"),
  evidenceDueBy: new Date(0),
});
const refusal = (code: string | undefined) => refusalOf(REFUSALS, (word) => word === code);
const action = (response: ProviderResponse) => readDisputeAction(response, schema, reportOf, refusal);

describe("readDisputeAction: a submission's or an acceptance's answer", () => {
  it.each([
    [
      answered(200, { id: "dp_1", state: "review", reason: "fraud" }),
      { kind: "taken", report: expect.objectContaining({ status: "under_review", reason: "fraudulent" }) },
    ],
    [answered(200, { id: "dp_1", state: "review", reason: "something new" }), { kind: "taken", report: expect.objectContaining({ reason: "other" }) }],
    [answered(200, { unexpected: true }), { kind: "unknown" }],
    [answered(422, { error: { code: "too_late" } }), { kind: "refused", code: "deadline_passed" }],
    [answered(422, { error_code: "not_open" }), { kind: "refused", code: "closed" }],
    [answered(400, { error: { code: "invalid_request" } }), { kind: "failed" }],
    [answered(404), { kind: "failed" }],
    [answered(401), { kind: "failed" }],
    [answered(429), { kind: "failed" }],
    [answered(503), { kind: "failed" }],
    [answered(500), { kind: "unknown" }],
    [{ kind: "not_sent", message: "not sent: connection refused" } as const, { kind: "failed" }],
    [{ kind: "timed_out", message: "no answer within 10000 ms" } as const, { kind: "unknown" }],
  ])("%o → %o", (response, outcome) => {
    expect(action(response)).toEqual(expect.objectContaining(outcome));
  });
});

describe("readDisputeStatus: a dispute status request's answer", () => {
  it.each([
    [answered(200, { id: "dp_1", state: "won", reason: "dup" }), { kind: "found", report: expect.objectContaining({ status: "won", reason: "duplicate" }) }],
    [answered(404, { error: { code: "not_found" } }), { kind: "not_found" }],
    [answered(503), { kind: "failed" }],
    [answered(200, "not json"), { kind: "failed" }],
    [{ kind: "timed_out", message: "no answer within 10000 ms" } as const, { kind: "failed" }],
  ])("%o → %o", (response, outcome) => {
    expect(readDisputeStatus(response, schema, reportOf)).toEqual(expect.objectContaining(outcome));
  });
});
