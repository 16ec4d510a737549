import { describe, expect, it } from "vitest";
import { mergeOrder, positionChanges } from "./order";
import { parseRoutingOrderId, routingOrderId } from "./schemas";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const B = { id: "conn_b", createdAt: at(1) };
const C = { id: "conn_c", createdAt: at(2) };
const E = { id: "conn_e", createdAt: at(3) };
const F = { id: "conn_f", createdAt: at(4) };
const ids = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

describe("mergeOrder (routing order)", () => {
  it("is oldest first when nothing is saved, ties broken by id", () => {
    const twin = { id: "conn_a", createdAt: at(1) };
    expect(ids(mergeOrder([], [F, C, B, E, twin]))).toEqual(["conn_a", "conn_b", "conn_c", "conn_e", "conn_f"]);
  });

  it("puts the saved ids first, in their saved order", () => {
    expect(ids(mergeOrder(["conn_f", "conn_c", "conn_e", "conn_b"], [B, C, E, F]))).toEqual(["conn_f", "conn_c", "conn_e", "conn_b"]);
  });

  it("appends connections the saved order does not name, oldest first, so a new one is routable at once", () => {
    expect(ids(mergeOrder(["conn_e"], [F, B, E, C]))).toEqual(["conn_e", "conn_b", "conn_c", "conn_f"]);
  });

  it("drops saved ids that no longer name a candidate (deleted, or disabled when routing skips them)", () => {
    expect(ids(mergeOrder(["conn_gone", "conn_f", "conn_e"], [B, E]))).toEqual(["conn_e", "conn_b"]);
  });

  it("keeps a skipped connection's place: once it is back it is where it was saved", () => {
    const saved = ["conn_f", "conn_b", "conn_e"];
    expect(ids(mergeOrder(saved, [B, E]))).toEqual(["conn_b", "conn_e"]);
    expect(ids(mergeOrder(saved, [B, E, F]))).toEqual(["conn_f", "conn_b", "conn_e"]);
  });

  it("takes a duplicated saved id once", () => {
    expect(ids(mergeOrder(["conn_c", "conn_c", "conn_b"], [B, C]))).toEqual(["conn_c", "conn_b"]);
  });
});

describe("positionChanges", () => {
  it("names every connection that moves, with 1-based positions, and none that stays", () => {
    expect(positionChanges(["a", "b", "c"], ["c", "b", "a"])).toEqual([
      { id: "c", from: 3, to: 1 },
      { id: "a", from: 1, to: 3 },
    ]);
    expect(positionChanges(["a", "b"], ["a", "b"])).toEqual([]);
  });

  it("gives null for a side the connection is absent from", () => {
    expect(positionChanges(["a"], ["b", "a"])).toEqual([
      { id: "b", from: null, to: 1 },
      { id: "a", from: 1, to: 2 },
    ]);
  });
});

describe("routing order ids", () => {
  it("are service:mode and read back", () => {
    expect(routingOrderId("payment_card_eur_hpp", "test")).toBe("payment_card_eur_hpp:test");
    expect(parseRoutingOrderId("payment_card_eur_hpp:live")).toEqual({ service: "payment_card_eur_hpp", mode: "live" });
    for (const bad of ["payment_card_eur_hpp", "payment_card_eur_hpp:prod", ":test", "a b:test", "x:test:live"]) {
      expect(parseRoutingOrderId(bad), bad).toBeUndefined();
    }
  });
});
