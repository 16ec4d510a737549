import { describe, expect, it } from "vitest";
import { parseViewMode, viewModeFromCookieHeader, viewModeSchema } from "./view-mode";

describe("the Test/Live view cookie", () => {
  it("reads test or live, and anything else as the default test view", () => {
    expect(parseViewMode("live")).toBe("live");
    expect(parseViewMode("test")).toBe("test");
    for (const value of [undefined, "", "LIVE", "live ", "all"]) expect(parseViewMode(value)).toBe("test");
  });

  it("finds the cookie among others in a Cookie header", () => {
    expect(viewModeFromCookieHeader("a=1; view_mode=live; b=2")).toBe("live");
    expect(viewModeFromCookieHeader("xview_mode=live")).toBe("test");
    expect(viewModeFromCookieHeader(null)).toBe("test");
  });

  it("accepts only test or live from the switch", () => {
    expect(viewModeSchema.safeParse({ mode: "live" }).success).toBe(true);
    expect(viewModeSchema.safeParse({ mode: "both" }).success).toBe(false);
  });
});
