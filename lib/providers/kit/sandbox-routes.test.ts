import { describe, expect, it } from "vitest";
import { sandboxRoutes } from "./sandbox-routes";

describe("sandboxRoutes: a sandbox's endpoints as one table", () => {
  const route = sandboxRoutes({
    "POST v1/charges": "create",
    "GET v1/charges/{id}": "read",
    "GET v1/charges": "list",
    "POST v1/payouts/cancel": "cancel",
  });

  it("finds the handler by method and path, and hands on the {name} segments as they came", () => {
    expect(route("POST", ["v1", "charges"])).toEqual({ kind: "found", handler: "create", params: {} });
    expect(route("GET", ["v1", "charges"])).toEqual({ kind: "found", handler: "list", params: {} });
    expect(route("GET", ["v1", "charges", "ord%2F1"])).toEqual({ kind: "found", handler: "read", params: { id: "ord%2F1" } });
    expect(route("POST", ["v1", "payouts", "cancel"])).toEqual({ kind: "found", handler: "cancel", params: {} });
  });

  it("tells a known path with another method from a path it does not know", () => {
    expect(route("DELETE", ["v1", "charges"])).toEqual({ kind: "other-method", allowed: ["POST", "GET"] });
    expect(route("GET", ["v1", "payouts", "cancel"])).toEqual({ kind: "other-method", allowed: ["POST"] });
    expect(route("GET", ["v2", "charges"])).toEqual({ kind: "none" });
    expect(route("GET", ["v1", "charges", "a", "b"])).toEqual({ kind: "none" });
    expect(route("GET", [])).toEqual({ kind: "none" });
  });

  it('refuses a table key that is not "METHOD path"', () => {
    expect(() => sandboxRoutes({ "v1/charges": 1 })).toThrow(/METHOD path/);
  });
});
