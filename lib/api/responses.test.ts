import { describe, expect, it } from "vitest";
import { jsonApi, type JsonApiResource } from "./responses";

describe("jsonApi", () => {
  it("serialises with the JSON:API content type, status and extra headers", async () => {
    const resource: JsonApiResource<{ amount: string }> = { type: "payment-invoice", id: "cpi_1", attributes: { amount: "10.00" }, links: { self: "/x" } };
    const response = jsonApi({ data: resource }, { status: 201, headers: { Location: "/x" } });
    expect(response.status).toBe(201);
    expect(response.headers.get("content-type")).toBe("application/vnd.api+json");
    expect(response.headers.get("location")).toBe("/x");
    expect(await response.json()).toEqual({ data: resource });
  });

  it("defaults to 200", () => {
    expect(jsonApi({ data: [] }).status).toBe(200);
  });
});
