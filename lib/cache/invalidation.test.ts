import { afterEach, describe, expect, it } from "vitest";
import { cachingAllowed, instanceId, invalidation, stopCacheInvalidation } from "./invalidation";
import { sharedCache } from "./shared-cache";

const saved = process.env.DATABASE_URL;
afterEach(async () => {
  await stopCacheInvalidation();
  if (saved === undefined) delete process.env.DATABASE_URL;
  else process.env.DATABASE_URL = saved;
});

describe("cache invalidation on the embedded database (one process)", () => {
  it("applies an invalidation here at once, and caches may store entries from the start", async () => {
    delete process.env.DATABASE_URL;
    expect(cachingAllowed()).toBe(true);
    const cache = sharedCache<string>("test-invalidation", 60_000, { acrossProcesses: true });
    cache.set("m1|a", "x");
    cache.set("m2|a", "y");
    const forget = invalidation("test:merchant", (merchantId) => cache.deleteWhere((key) => key.startsWith(`${merchantId}|`)));
    await forget("m1");
    expect(cache.get("m1|a")).toBeUndefined();
    expect(cache.get("m2|a")?.value).toBe("y");
    expect(instanceId()).toMatch(/^[0-9a-f-]{36}$/);
  });
});
