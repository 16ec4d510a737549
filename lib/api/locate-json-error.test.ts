import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { locateJsonError } from "./locate-json-error";

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

describe("locateJsonError", () => {
  it("agrees with JSON.parse on valid input and finds the first bad character", () => {
    expect(locateJsonError('{"a":[1,2.5e3,true,null,"\\u00e9"],"b":{}}')).toBeUndefined();
    expect(locateJsonError('{"a":}')).toMatchObject({ position: 5, line: 1, column: 6 });
    expect(locateJsonError("[1,2]x")).toMatchObject({ position: 5 });
    expect(locateJsonError('{\n  "a" 1}')).toMatchObject({ position: 8, line: 2, column: 7 });
    expect(locateJsonError('"abc')?.reason).toBe("Unterminated string");
    expect(locateJsonError("01")).toMatchObject({ position: 1 });
  });
});

describe("locateJsonError against JSON.parse", () => {
  it("finds an error exactly when JSON.parse fails", () => {
    const jsonish = fc.stringMatching(/^[\[\]{}",:0-9.eE+\-a-z\\ \n]{0,24}$/);
    const mutatedJson = fc
      .tuple(fc.json(), fc.nat(), fc.constantFrom("", ",", "}", "]", '"', "x", "0"))
      .map(([json, at, insert]) => json.slice(0, at % (json.length + 1)) + insert + json.slice(at % (json.length + 1)));
    fc.assert(
      fc.property(fc.oneof(jsonish, fc.json(), mutatedJson), (text) => {
        expect(locateJsonError(text) === undefined).toBe(parses(text));
      }),
      { numRuns: 3000 },
    );
  });
});
