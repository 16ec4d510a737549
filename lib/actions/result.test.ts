import { describe, expect, it } from "vitest";
import { problem } from "@/lib/problems";
import { problemsToFormErrors } from "./result";

describe("problemsToFormErrors", () => {
  it("puts each problem on its field by dotted name, the first per field", () => {
    const errors = problemsToFormErrors([
      problem("too_short", "At least 10 characters", ["password"]),
      problem("invalid_format", "Letters and digits", ["password"]),
      problem("invalid_key_file", "Not a PEM key", ["credentials", "public_key"]),
    ]);
    expect(errors).toEqual({ fieldErrors: { password: "At least 10 characters", "credentials.public_key": "Not a PEM key" } });
  });

  it("sends a problem without a path to the alert, unless the caller has a message", () => {
    const problems = [problem("last_owner", "The last owner cannot be removed."), problem("taken", "Taken", ["email"])];
    expect(problemsToFormErrors(problems)).toEqual({ fieldErrors: { email: "Taken" }, message: "The last owner cannot be removed." });
    expect(problemsToFormErrors(problems, "Refused")).toEqual({ fieldErrors: { email: "Taken" }, message: "Refused" });
    expect(problemsToFormErrors([])).toEqual({ fieldErrors: {} });
  });

  it("sends a problem on a field named after an object member (only a crafted request has one) to the alert, never lost", () => {
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty"]) {
      const errors = problemsToFormErrors([problem("unknown_field", `Unknown field ${name}`, [name])]);
      expect(errors, name).toEqual({ fieldErrors: {}, message: `Unknown field ${name}` });
      expect(Object.getPrototypeOf(errors.fieldErrors), name).toBe(Object.prototype);
    }
    expect(problemsToFormErrors([problem("taken", "Taken", ["customer", "constructor"])])).toEqual({ fieldErrors: { "customer.constructor": "Taken" } });
  });
});
