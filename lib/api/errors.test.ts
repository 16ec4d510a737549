import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { ApiError, ApiValidationError, buildPointer, fieldErrorsToJsonApi, handleApiError, zodIssuesToJsonApi } from "./errors";

afterEach(() => vi.restoreAllMocks());

describe("JSON pointers", () => {
  it("puts relative paths under /data/attributes", () => {
    expect(buildPointer(["customer", "address", 0])).toBe("/data/attributes/customer/address/0");
  });

  it("treats a path starting with data as absolute", () => {
    expect(buildPointer(["data", "relationships", "connection"])).toBe("/data/relationships/connection");
  });

  it("escapes ~ and / in path parts", () => {
    expect(buildPointer(["a/b", "c~d", "~/"])).toBe("/data/attributes/a~1b/c~0d/~0~1");
  });

  it("uses the base pointer for an empty path and honours a custom base", () => {
    expect(buildPointer([])).toBe("/data/attributes");
    expect(buildPointer(["x"], "/meta")).toBe("/meta/x");
  });
});

describe("fieldErrorsToJsonApi", () => {
  it("keeps the code when set and falls back to invalid", () => {
    const errors = fieldErrorsToJsonApi([
      { path: ["currency"], message: "takes UAH, got EUR", code: "currency_mismatch" },
      { path: ["amount"], message: "must be positive" },
    ]);
    expect(errors).toEqual([
      { status: "422", code: "currency_mismatch", title: "Invalid value", detail: "takes UAH, got EUR", source: { pointer: "/data/attributes/currency" } },
      { status: "422", code: "invalid", title: "Invalid value", detail: "must be positive", source: { pointer: "/data/attributes/amount" } },
    ]);
  });
});

describe("zodIssuesToJsonApi", () => {
  const schema = z.strictObject({ amount: z.string().min(1), currency: z.string().length(3), items: z.array(z.number()) });

  it("reports every issue, including each unknown key separately", () => {
    const result = schema.safeParse({ currency: "EURO", items: [1, "x"], extra: 1, "a/b": 2 });
    expect(result.success).toBe(false);
    const errors = zodIssuesToJsonApi(result.error!.issues);
    const pointers = errors.map((e) => e.source?.pointer).sort();
    expect(pointers).toEqual(
      [
        "/data/attributes/amount",
        "/data/attributes/currency",
        "/data/attributes/items/1",
        "/data/attributes/extra",
        "/data/attributes/a~1b",
      ].sort(),
    );
    expect(errors.find((e) => e.source?.pointer.endsWith("/amount"))).toMatchObject({ code: "required", title: "Required" });
    expect(errors.find((e) => e.source?.pointer.endsWith("/currency"))).toMatchObject({ code: "too_big", status: "422" });
    expect(errors.every((e) => e.detail.length > 0)).toBe(true);
  });
});

describe("handleApiError", () => {
  const read = async (response: Response) => ({ status: response.status, body: await response.json() });

  it("renders an ApiError with its status, pointer and the request id", async () => {
    const response = handleApiError(new ApiError(409, "reference_reused", "Reference reused", "different body", "/data/attributes/reference_id"), "r1");
    expect(response.headers.get("content-type")).toBe("application/vnd.api+json");
    expect(response.headers.get("x-request-id")).toBe("r1");
    expect(await read(response)).toEqual({
      status: 409,
      body: {
        errors: [{ status: "409", code: "reference_reused", title: "Reference reused", detail: "different body", source: { pointer: "/data/attributes/reference_id" } }],
        meta: { request_id: "r1" },
      },
    });
  });

  it("renders all validation errors at once", async () => {
    const errors = fieldErrorsToJsonApi([{ path: ["a"], message: "x" }, { path: ["b"], message: "y" }]);
    const { status, body } = await read(handleApiError(new ApiValidationError(errors), "r2"));
    expect(status).toBe(422);
    expect(body.errors).toHaveLength(2);
  });

  it("maps ForbiddenError to 403 and NotFoundError to 404", async () => {
    expect((await read(handleApiError(new ForbiddenError("not yours"), "r"))).body.errors[0]).toMatchObject({ status: "403", code: "forbidden" });
    expect(handleApiError(new NotFoundError("no invoice"), "r").status).toBe(404);
  });

  it("hides unknown errors behind internal_error and logs them with the request id", async () => {
    const log = vi.spyOn(logger, "error").mockImplementation(() => {});
    const { status, body } = await read(handleApiError(new Error("db password=hunter2 at pg.internal"), "r3"));
    expect(status).toBe(500);
    expect(body.errors[0].code).toBe("internal_error");
    expect(JSON.stringify(body)).not.toContain("hunter2");
    expect(JSON.stringify(body)).not.toContain("pg.internal");
    expect(log).toHaveBeenCalledWith("unhandled API error", expect.objectContaining({ requestId: "r3" }));
  });
});
