import { describe, expect, it } from "vitest";
import { sharedCache } from "./shared-cache";

describe("sharedCache", () => {
  it("returns a value until it expires, including undefined values", () => {
    const cache = sharedCache<string | undefined>("test-expiry", 1_000);
    cache.set("a", "x", 0);
    cache.set("none", undefined, 0);
    expect(cache.get("a", 999)).toEqual({ value: "x" });
    expect(cache.get("none", 500)).toEqual({ value: undefined });
    expect(cache.get("a", 1_000)).toBeUndefined();
  });

  it("is one store per name across callers, so an invalidation anywhere applies everywhere", () => {
    const writer = sharedCache<number>("test-shared", 60_000);
    const reader = sharedCache<number>("test-shared", 60_000);
    writer.set("m1|svc", 1);
    writer.set("m2|svc", 2);
    expect(reader.get("m1|svc")?.value).toBe(1);
    writer.deleteWhere((key) => key.startsWith("m1|"));
    expect(reader.get("m1|svc")).toBeUndefined();
    expect(reader.get("m2|svc")?.value).toBe(2);
  });

  it("drops the oldest entry when full", () => {
    const cache = sharedCache<number>("test-bounded", 60_000, 2);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("c", 3);
    expect(cache.get("a")).toBeUndefined();
    expect(cache.get("c")?.value).toBe(3);
  });
});
