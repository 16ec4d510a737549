import { describe, expect, it } from "vitest";
import type { RoutingRule } from "./rules";
import { diffVersions, summaryLine, type ConnectionFact } from "./version-diff";

const facts: ConnectionFact[] = [
  { id: "b", label: "B", state: "enabled" },
  { id: "f", label: "F", state: "enabled" },
  { id: "c", label: "C", state: "disabled" },
  { id: "x", label: "Old X", state: "deleted" },
];
const rule = (name: string, ids: string[], conditions: RoutingRule["conditions"] = {}): RoutingRule => ({
  name,
  conditions,
  outcome: { kind: "cascade", connection_ids: ids },
});
const v = (version: number, rules: RoutingRule[], connectionIds: string[]) => ({ version, rules, connectionIds });
const sentences = (from: ReturnType<typeof v>, to: ReturnType<typeof v>) => diffVersions(from, to, "EUR", facts).changes.map((change) => change.sentence);

describe("diffVersions", () => {
  it("says nothing changed for equal versions", () => {
    const same = v(1, [rule("A", ["b"])], ["b", "f"]);
    expect(sentences(same, { ...same, version: 2 })).toEqual([]);
  });

  it("names added, removed and changed rules in the Routing page's words", () => {
    expect(
      sentences(
        v(1, [rule("France", ["f"], { customer_countries: ["FR"] }), rule("Gone", ["b"])], ["b", "f"]),
        v(2, [rule("France", ["b", "f"], { customer_countries: ["FR", "DE"] }), rule("Big", ["f"], { amount_min: "100.00" })], ["b", "f"]),
      ),
    ).toEqual([
      "Rule 2 “Gone” removed (Every invoice → B).",
      "Rule 2 “Big” added (When amount at least 100.00 EUR → F).",
      "Rule 1 “France” changed: its conditions were “When customer in FR”, now “When customer in FR, DE”; it sent invoices to “F”, now to “B, then F”.",
    ]);
  });

  it("reports only the rule that moved, not the ones it pushed along", () => {
    const [a, b, c] = [rule("A", ["b"]), rule("B", ["b"]), rule("C", ["b"])];
    expect(sentences(v(1, [a, b, c], ["b"]), v(2, [c, a, b], ["b"]))).toEqual(["Rule “C” moved from position 3 to 1."]);
  });

  it("names connections that joined, left or moved in the routing order, and the deleted and disabled ones", () => {
    const diff = diffVersions(v(1, [], ["x", "b", "f"]), v(2, [], ["f", "b", "c"]), "EUR", facts);
    expect(diff.changes.map((change) => change.sentence)).toEqual([
      "“C” joined the routing order at position 3.",
      "“Old X” left the routing order (it was at position 1).",
      "“F” moved from position 3 to 1 in the routing order.",
    ]);
    expect(diff.notes.map((note) => note.sentence)).toEqual([
      "“Old X” no longer exists: it was deleted.",
      "“C” is disabled now: routing skips it until it is enabled again.",
    ]);
    expect(summaryLine(diff.changes, 2)).toBe("“C” joined the order, “Old X” left the order and 1 more change");
  });
});

describe("diffVersions and 3-D Secure", () => {
  it("says when a rule starts or stops requiring 3-D Secure", () => {
    const plain = rule("Big", ["b"], { amount_min: "100.00" });
    const strict = { ...plain, require_three_ds: true };
    expect(sentences(v(1, [plain], ["b"]), v(2, [strict], ["b"]))).toEqual(["Rule 1 “Big” changed: it now requires 3-D Secure."]);
    expect(sentences(v(2, [strict], ["b"]), v(3, [plain], ["b"]))).toEqual(["Rule 1 “Big” changed: it no longer requires 3-D Secure."]);
    expect(sentences(v(1, [], ["b"]), v(2, [strict], ["b"]))[0]).toContain("3-D Secure required");
  });
});
