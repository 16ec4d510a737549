import { describe, expect, it } from "vitest";
import { z } from "zod";
import { prefixPaths, problem, problemsFromZod, toJsonPointer, UNKNOWN_KEY_SEPARATOR } from "./problems";

const schema = z.strictObject({
  name: z.string().min(2).max(4),
  tags: z.array(z.string()).max(1),
  count: z.number().max(3),
  kind: z.enum(["a", "b"]),
  code: z.string().refine((value) => value === "ok", { error: "code must be ok", params: { code: "invalid_code" } }),
  step: z.number().multipleOf(5),
});

const codesByPath = (problems: ReturnType<typeof problemsFromZod>) => Object.fromEntries(problems.map((entry) => [entry.path.join("."), entry.code]));

describe("problemsFromZod", () => {
  const input = { name: "abcdef", tags: ["x", "y"], count: 9, code: "no", step: 7, extra: 1, "a/b": 2 };
  const issues = schema.safeParse(input).error!.issues;

  it("keeps zod's codes by default and each unknown key on its own path", () => {
    expect(codesByPath(problemsFromZod(issues))).toEqual({
      name: "too_big",
      tags: "too_big",
      count: "too_big",
      kind: "invalid_value",
      code: "invalid_code",
      step: "not_multiple_of",
      extra: "unrecognized_keys",
      "a/b": "unrecognized_keys",
    });
  });

  it("names codes from the closed set, and a member absent from the input is required", () => {
    expect(codesByPath(problemsFromZod(issues, { input, codes: "closed" }))).toEqual({
      name: "too_long",
      tags: "too_long",
      count: "out_of_range",
      kind: "required",
      code: "invalid_code",
      step: "invalid",
      extra: "unknown_attribute",
      "a/b": "unknown_attribute",
    });
  });

  it("words a missing member as 'x is required', with or without the input", () => {
    const missing = z.object({ amount: z.string() }).safeParse({}).error!.issues;
    expect(problemsFromZod(missing)).toEqual([{ code: "required", message: "amount is required", path: ["amount"] }]);
    const custom = z.object({ label: z.string({ error: "Label is required" }) }).safeParse({}).error!.issues;
    expect(problemsFromZod(custom)).toEqual([{ code: "invalid_type", message: "Label is required", path: ["label"] }]);
    expect(problemsFromZod(custom, { input: {} })).toEqual([{ code: "required", message: "label is required", path: ["label"] }]);
  });

  it("uses a schema's own per-key messages and replaces zod's default one", () => {
    const own = z.strictObject(
      {},
      { error: (issue) => (issue.code === "unrecognized_keys" ? issue.keys.map((k) => `No ${k}`).join(UNKNOWN_KEY_SEPARATOR) : undefined) },
    );
    expect(problemsFromZod(own.safeParse({ x: 1, y: 2 }).error!.issues).map((entry) => entry.message)).toEqual(["No x", "No y"]);
    expect(problemsFromZod(z.strictObject({}).safeParse({ x: 1 }).error!.issues).map((entry) => entry.message)).toEqual(['Unknown field "x"']);
  });

  it("never puts the submitted value into a message", () => {
    const card = z.object({ card: z.string().regex(/^\d{16}$/), pin: z.literal("0000") });
    const problems = problemsFromZod(card.safeParse({ card: "4111111111111112x", pin: "9876" }).error!.issues, { codes: "closed" });
    expect(JSON.stringify(problems)).not.toContain("4111111111111112");
    expect(JSON.stringify(problems)).not.toContain("9876");
  });
});

describe("prefixPaths and toJsonPointer", () => {
  it("puts problems one level down and escapes pointers (RFC 6901)", () => {
    expect(prefixPaths(["credentials"], [problem("required", "x", ["secret_key"])])).toEqual([problem("required", "x", ["credentials", "secret_key"])]);
    expect(toJsonPointer(["data", "a/b", "c~d", 0])).toBe("/data/a~1b/c~0d/0");
    expect(toJsonPointer([])).toBe("");
  });
});
