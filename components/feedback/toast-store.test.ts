import { afterEach, describe, expect, it } from "vitest";
import { clearToasts, decodeFlash, dismiss, encodeFlash, getToasts, MAX_TOASTS, notify, subscribe } from "./toast-store";

afterEach(() => clearToasts());

describe("toast store", () => {
  it("shows a confirmation with its next step and tells the Toaster", () => {
    let calls = 0;
    const stop = subscribe(() => (calls += 1));
    const id = notify({ message: "Connection saved.", actions: [{ label: "Test it", href: "/connections/con_1#test" }] });
    stop();
    expect(calls).toBe(1);
    expect(getToasts()).toEqual([{ id, message: "Connection saved.", tone: "success", actions: [{ label: "Test it", href: "/connections/con_1#test" }] }]);
  });

  it("keeps only the newest toasts and dismisses by id", () => {
    const ids = Array.from({ length: MAX_TOASTS + 2 }, (_, i) => notify({ message: `n${i}` }));
    expect(getToasts().map((t) => t.id)).toEqual(ids.slice(-MAX_TOASTS));
    dismiss(ids.at(-1)!);
    expect(getToasts().map((t) => t.message)).not.toContain(`n${MAX_TOASTS + 1}`);
  });

  it("drops next steps that are not links of this site or http(s)", () => {
    notify({
      message: "x",
      actions: [
        { label: "bad", href: "javascript:alert(1)" },
        { label: "ok", href: "/invoices" },
      ],
    });
    expect(getToasts()[0]!.actions).toEqual([{ label: "ok", href: "/invoices" }]);
  });

  it("round-trips a flashed toast through the cookie value and refuses junk", () => {
    const toast = { id: "t1", message: "Key revoked; café ; = ,", tone: "info" as const, actions: [{ label: "Docs", href: "/docs/api" }] };
    expect(decodeFlash(encodeFlash(toast))).toEqual(toast);
    expect(decodeFlash("%7Bnot json")).toBeUndefined();
    expect(decodeFlash(encodeURIComponent(JSON.stringify({ id: 1, message: "x" })))).toBeUndefined();
    expect(decodeFlash(encodeURIComponent(JSON.stringify({ id: "a", message: "x", actions: [{ label: "l", href: "javascript:x" }] })))!.actions).toEqual([]);
  });
});
