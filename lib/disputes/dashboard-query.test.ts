import { describe, expect, it } from "vitest";
import { readDisputePageQuery } from "./dashboard-query";

describe("the Disputes page's query", () => {
  it("reads status, connection and the deadline's day in the viewer's zone (the day included)", () => {
    const read = readDisputePageQuery({ status: "open", connection: "conn_abc", due_before: "2026-12-08" }, "Europe/Berlin");
    expect(read.invalid).toEqual([]);
    expect(read.filters).toEqual({ status: "open", connection: "conn_abc", due_before: "2026-12-08" });
    // The end of 8 December in Berlin (CET, UTC+1) is 23:00 UTC that day.
    expect(read.filter).toMatchObject({ status: "open", connectionId: "conn_abc", dueBefore: new Date("2026-12-08T23:00:00.000Z"), pageSize: 20 });
  });

  it("drops what it cannot read, naming it, and keeps the rest", () => {
    const read = readDisputePageQuery(new URLSearchParams({ status: "pending", connection: "cpi_1", due_before: "2026-02-30", after: "not-a-cursor" }), "UTC");
    expect(read.invalid).toEqual(["status", "connection", "due_before", "after"]);
    expect(read.filters).toEqual({});
    expect(read.filter).toEqual({ pageSize: 20 });
    const some = readDisputePageQuery({ status: "won", connection: "nope" }, "UTC");
    expect(some.invalid).toEqual(["connection"]);
    expect(some.filter).toMatchObject({ status: "won" });
  });
});
