import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./cursor";
import { DASHBOARD_PAGE_SIZE, readApiListQuery, readDashboardListQuery } from "./filters";

const cursorOf = (pair: unknown) => Buffer.from(JSON.stringify(pair)).toString("base64url");

describe("cursor", () => {
  it("round-trips the position after an invoice and refuses anything else", () => {
    const row = { createdAt: new Date("2025-01-02T03:04:05.678Z"), id: "cpi_abc" };
    expect(decodeCursor(encodeCursor(row))).toEqual({ createdAt: "2025-01-02T03:04:05.678Z", id: "cpi_abc" });
    for (const bad of [
      "zzz",
      cursorOf(["0000-01-01T00:00:00.000Z", "cpi_x"]),
      cursorOf(["2025-01-01T00:00:00Z", "cpi_x"]),
      cursorOf(["2025-01-01T00:00:00.000Z", "conn_x"]),
      cursorOf({}),
    ]) {
      expect(decodeCursor(bad)).toBeUndefined();
    }
  });
});

describe("readApiListQuery", () => {
  it("reads the API's vocabulary into the one filter, the reference matched exactly", () => {
    const after = encodeCursor({ createdAt: new Date("2025-01-02T00:00:00.000Z"), id: "cpoi_x" });
    const params = new URLSearchParams({
      "filter[reference_id]": "order-1",
      "filter[status]": "created",
      "filter[created_from]": "2025-01-01T00:00:00Z",
      "filter[created_to]": "2025-02-01T00:00:00Z",
      "page[size]": "7",
      "page[after]": after,
    });
    expect(readApiListQuery(params, "payout")).toEqual({
      ok: true,
      value: {
        direction: "payout",
        status: "created",
        reference: { value: "order-1", match: "exact" },
        createdFrom: new Date("2025-01-01T00:00:00Z"),
        createdBefore: new Date("2025-02-01T00:00:00Z"),
        after: { createdAt: "2025-01-02T00:00:00.000Z", id: "cpoi_x" },
        pageSize: 7,
      },
    });
    expect(readApiListQuery(new URLSearchParams(), "payment")).toEqual({ ok: true, value: { direction: "payment", pageSize: 20 } });
  });

  it("reports every problem at once, each named by its parameter", () => {
    const result = readApiListQuery(new URLSearchParams("filter[nope]=1&filter[created_from]=0000-01-01T00:00:00Z&page[after]=zzz"), "payment");
    expect(result.ok ? [] : result.problems.map((p) => [p.path, p.code, p.message])).toEqual([
      [["filter[nope]"], "unknown_parameter", expect.stringContaining("use one of filter[reference_id]")],
      [["page[after]"], "invalid_cursor", expect.stringContaining("links.next")],
      [["filter[created_from]"], "invalid_parameter", "filter[created_from] must lie between 1970 and 9999"],
    ]);
  });
});

describe("readDashboardListQuery", () => {
  it("reads the page's vocabulary into the same filter, the reference as a prefix, days as UTC bounds", () => {
    const after = encodeCursor({ createdAt: new Date("2025-01-02T00:00:00.000Z"), id: "cpi_x" });
    const read = readDashboardListQuery({ type: "payment", status: "processing", reference: "ord", to: "2024-12-31", after });
    expect(read).toEqual({
      filters: { type: "payment", status: "processing", reference: "ord", to: "2024-12-31" },
      after,
      invalid: [],
      filter: {
        direction: "payment",
        status: "processing",
        reference: { value: "ord", match: "prefix" },
        createdBefore: new Date("2025-01-01T00:00:00.000Z"),
        after: { createdAt: "2025-01-02T00:00:00.000Z", id: "cpi_x" },
        pageSize: DASHBOARD_PAGE_SIZE,
      },
    });
  });

  it("lets the Test/Live view decide the mode: the page's own mode parameter is not read", () => {
    const read = readDashboardListQuery({ mode: "live", status: "processed" }, { viewMode: "test" });
    expect(read.filters).toEqual({ status: "processed" });
    expect(read.invalid).toEqual([]);
    expect(read.filter).toEqual({ status: "processed", mode: "test", pageSize: DASHBOARD_PAGE_SIZE });
    expect(readDashboardListQuery({}, { viewMode: "live" }).filter.mode).toBe("live");
    expect(readDashboardListQuery({ mode: "live" }).filter.mode).toBe("live");
  });
});
