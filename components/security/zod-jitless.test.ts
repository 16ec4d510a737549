import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { makeZodJitless } from "./zod-jitless";

/** The root layout sets zod's `jitless` without importing zod: the installed zod must see it. */
describe("makeZodJitless", () => {
  it("reaches a zod that loaded before it", async () => {
    const { config } = await import("zod/v4/core");
    makeZodJitless();
    expect(config().jitless).toBe(true);
    const { z } = await import("zod");
    expect(z.config().jitless).toBe(true);
  });

  it("reaches a zod that loads after it (a fresh process, as a page that loads zod later)", () => {
    const script = [
      'import { makeZodJitless } from "./components/security/zod-jitless.tsx";',
      'if (globalThis.__zod_globalConfig) throw new Error("zod loaded too early");',
      "makeZodJitless();",
      'const { z } = await import("zod");',
      'const mini = await import("zod/mini");',
      "console.log(JSON.stringify([z.config().jitless, mini.config().jitless]));",
    ].join("\n");
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(JSON.parse(out.trim())).toEqual([true, true]);
  });
});
