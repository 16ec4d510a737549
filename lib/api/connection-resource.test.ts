import { describe, expect, it } from "vitest";
import { connectionHealthSchema } from "@/lib/api/management-schemas";
import { toHealthAttribute } from "./connection-resource";

describe("toHealthAttribute", () => {
  it("shows the stored state with the figures the rule read, since when, and the last error, in the document's shape", () => {
    const at = new Date("2026-11-29T09:41:07.298Z");
    const failing = toHealthAttribute({
      health: "failing",
      healthWindow: "SSSSFSSFSSSFFF",
      healthChangedAt: new Date("2026-11-29T09:41:07.312Z"),
      lastError: { at, resolution: "provider_unavailable", message: "HTTP 503" },
      disputeRateHigh: false,
    });
    expect(failing).toEqual({
      state: "failing",
      since: "2026-11-29T09:41:07.312Z",
      recent_outcomes: { counted: 14, succeeded: 9, failed: 5, success_rate: 0.6429, failures_in_a_row: 3 },
      last_error: { at: "2026-11-29T09:41:07.298Z", resolution: "provider_unavailable", message: "HTTP 503" },
      dispute_rate_high: false,
    });
    expect(connectionHealthSchema.parse(failing)).toEqual(failing);
    const fresh = toHealthAttribute({ health: "degraded", healthWindow: "", healthChangedAt: null, lastError: null, disputeRateHigh: true });
    // Degraded by its dispute rate alone: nothing counted against the provider.
    expect(fresh).toEqual({
      state: "degraded",
      since: null,
      recent_outcomes: { counted: 0, succeeded: 0, failed: 0, success_rate: null, failures_in_a_row: 0 },
      last_error: null,
      dispute_rate_high: true,
    });
    expect(connectionHealthSchema.parse(fresh)).toEqual(fresh);
  });

  it("the document's example is one the schema accepts", () => {
    const examples = (connectionHealthSchema.meta() as { examples: unknown[] }).examples;
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) expect(connectionHealthSchema.safeParse(example).success).toBe(true);
  });
});
