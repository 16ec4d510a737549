import { describe, expect, it } from "vitest";
import { sameFormValues } from "./use-unsaved-changes";

describe("sameFormValues: a form is unsaved while its values differ from the saved ones", () => {
  it("takes a number typed back as text for the saved number (react-hook-form's isDirty does not)", () => {
    expect(sameFormValues({ lifetimeMinutes: "30" }, { lifetimeMinutes: 30 })).toBe(true);
    expect(sameFormValues({ lifetimeMinutes: "45" }, { lifetimeMinutes: 30 })).toBe(false);
  });

  it("takes a cleared field the saved values leave out, or an unticked box, as unchanged", () => {
    expect(sameFormValues({ name: "", extra: "" }, { name: "" })).toBe(true);
    expect(sameFormValues({ requireOwnerMfa: false }, { requireOwnerMfa: false })).toBe(true);
    expect(sameFormValues({ requireOwnerMfa: false }, {})).toBe(true);
    expect(sameFormValues({ requireOwnerMfa: true }, { requireOwnerMfa: false })).toBe(false);
  });

  it("compares nested values, and a ticked set whatever the order it was ticked in", () => {
    const saved = { label: "B", credentials: { terminal_id: "T1", secret_key: "" }, eventTypes: ["invoice.processed", "refund.created"] };
    expect(sameFormValues({ ...saved, eventTypes: ["refund.created", "invoice.processed"] }, saved)).toBe(true);
    expect(sameFormValues({ ...saved, eventTypes: ["refund.created"] }, saved)).toBe(false);
    expect(sameFormValues({ ...saved, credentials: { terminal_id: "T2", secret_key: "" } }, saved)).toBe(false);
    expect(sameFormValues({ ...saved, eventTypes: [] }, { ...saved, eventTypes: undefined })).toBe(true);
  });
});
