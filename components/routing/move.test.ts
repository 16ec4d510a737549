import { describe, expect, it } from "vitest";
import { moveItem } from "./move";

describe("moveItem (Routing page: Move up / Move down and drag and drop)", () => {
  it("moves an item up, down and onto another's place", () => {
    expect(moveItem(["b", "c", "e", "f"], 1, 0)).toEqual(["c", "b", "e", "f"]);
    expect(moveItem(["b", "c", "e", "f"], 1, 2)).toEqual(["b", "e", "c", "f"]);
    expect(moveItem(["b", "c", "e", "f"], 3, 0)).toEqual(["f", "b", "c", "e"]);
    expect(moveItem(["b", "c", "e", "f"], 0, 3)).toEqual(["c", "e", "f", "b"]);
  });

  it("leaves the list as it was at its edges and for an unknown index", () => {
    const list = ["b", "c"];
    expect(moveItem(list, 0, -1)).toEqual(["b", "c"]);
    expect(moveItem(list, 1, 2)).toEqual(["b", "c"]);
    expect(moveItem(list, 5, 0)).toEqual(["b", "c"]);
    expect(list).toEqual(["b", "c"]);
  });
});
