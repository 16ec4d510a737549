import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ForbiddenError, NotFoundError } from "@/lib/errors";
import { logger } from "@/lib/logger";
import { problem, problemsFromZod } from "@/lib/problems";
import { ApiError, ApiValidationError, buildPointer, handleApiError, problemsToJsonApi } from "./errors";

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

describe("problemsToJsonApi", () => {
  it("keeps the code, takes the title from the one table and falls back to Invalid value", () => {
    const errors = problemsToJsonApi([
      problem("currency_mismatch", "takes UAH, got EUR", ["currency"]),
      problem("label_taken", "already used", ["label"]),
      problem("invalid", "must be positive", ["amount"]),
    ]);
    expect(errors).toEqual([
      {
        status: "422",
        code: "currency_mismatch",
        title: "Currency does not match service",
        detail: "takes UAH, got EUR",
        source: { pointer: "/data/attributes/currency" },
      },
      { status: "422", code: "label_taken", title: "Invalid value", detail: "already used", source: { pointer: "/data/attributes/label" } },
      { status: "422", code: "invalid", title: "Invalid value", detail: "must be positive", source: { pointer: "/data/attributes/amount" } },
    ]);
  });

  it("lists the same fault found twice once: JSON:API error arrays hold unique items", () => {
    const errors = problemsToJsonApi([
      problem("invalid", "must be a URL", ["url"]),
      problem("invalid", "must be a URL", ["url"]),
      problem("invalid", "must be a URL", ["other"]),
    ]);
    expect(errors.map((e) => e.source)).toEqual([{ pointer: "/data/attributes/url" }, { pointer: "/data/attributes/other" }]);
  });

  it('reads paths from the document root with base ""', () => {
    const errors = problemsToJsonApi([problem("too_deep", "x", ["meta", "a"]), problem("invalid_type", "y", []), problem("required", "z", ["data"])], {
      base: "",
    });
    expect(errors.map((e) => e.source)).toEqual([{ pointer: "/meta/a" }, { pointer: "" }, { pointer: "/data" }]);
  });

  it("names query parameters in source.parameter with the status given", () => {
    const errors = problemsToJsonApi([problem("unknown_parameter", "Unknown parameter filter[nope]", ["filter[nope]"])], { status: 400, source: "parameter" });
    expect(errors).toEqual([
      {
        status: "400",
        code: "unknown_parameter",
        title: "Invalid query parameter",
        detail: "Unknown parameter filter[nope]",
        source: { parameter: "filter[nope]" },
      },
    ]);
  });
});

describe("problemsToJsonApi of zod issues", () => {
  const schema = z.strictObject({ amount: z.string().min(1), currency: z.string().length(3), items: z.array(z.number()) });

  it("reports every issue, including each unknown key separately", () => {
    const result = schema.safeParse({ currency: "EURO", items: [1, "x"], extra: 1, "a/b": 2 });
    expect(result.success).toBe(false);
    const errors = problemsToJsonApi(problemsFromZod(result.error!.issues));
    const pointerOf = (e: (typeof errors)[number]) => (e.source && "pointer" in e.source ? e.source.pointer : "");
    const pointers = errors.map(pointerOf).sort();
    expect(pointers).toEqual(
      ["/data/attributes/amount", "/data/attributes/currency", "/data/attributes/items/1", "/data/attributes/extra", "/data/attributes/a~1b"].sort(),
    );
    expect(errors.find((e) => pointerOf(e).endsWith("/amount"))).toMatchObject({ code: "required", title: "Required field missing" });
    expect(errors.find((e) => pointerOf(e).endsWith("/currency"))).toMatchObject({ code: "too_big", status: "422" });
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
        errors: [
          {
            status: "409",
            code: "reference_reused",
            title: "Reference reused",
            detail: "different body",
            source: { pointer: "/data/attributes/reference_id" },
          },
        ],
        meta: { request_id: "r1" },
      },
    });
  });

  it("renders all validation errors at once", async () => {
    const problems = [problem("invalid", "x", ["a"]), problem("invalid", "y", ["b"])];
    const { status, body } = await read(handleApiError(new ApiValidationError(problems), "r2"));
    expect(status).toBe(422);
    expect(body.errors).toHaveLength(2);
  });

  it("renders a validation error with the status and source it was given", async () => {
    const error = new ApiValidationError([problem("invalid_cursor", "not a cursor", ["page[after]"])], { status: 400, source: "parameter" });
    const response = handleApiError(error, "r4");
    expect(response.headers.get("x-request-id")).toBe("r4");
    expect(await read(response)).toEqual({
      status: 400,
      body: {
        errors: [{ status: "400", code: "invalid_cursor", title: "Invalid query parameter", detail: "not a cursor", source: { parameter: "page[after]" } }],
        meta: { request_id: "r4" },
      },
    });
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
