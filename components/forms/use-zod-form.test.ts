import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { lazyZodResolver } from "./use-zod-form";

const options = { fields: {}, shouldUseNativeValidation: false } as const;
const schema = z.object({ name: z.string().trim().min(1, "Enter a name") });

describe("lazyZodResolver: a form's schema loads on its first check", () => {
  it("loads the schema once, then checks with it: errors by field, and parsed values", async () => {
    const load = vi.fn(async () => schema);
    const resolver = lazyZodResolver(load);
    expect(load).not.toHaveBeenCalled();
    const refused = await resolver({ name: "  " }, undefined, options);
    expect(refused.errors).toMatchObject({ name: { message: "Enter a name" } });
    const accepted = await resolver({ name: " Ada " }, undefined, options);
    expect(accepted).toEqual({ values: { name: "Ada" }, errors: {} });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("tries the load again on the next check when it failed (the network went away)", async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error("chunk failed")).mockResolvedValue(schema);
    const resolver = lazyZodResolver(load);
    await expect(resolver({ name: "Ada" }, undefined, options)).rejects.toThrow("chunk failed");
    expect((await resolver({ name: "Ada" }, undefined, options)).values).toEqual({ name: "Ada" });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
