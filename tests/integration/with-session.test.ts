import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
}));

import { GET as LIST } from "@/app/api/dashboard/invoices/route";
import { GET as ONE } from "@/app/api/dashboard/invoices/[id]/route";
import { ApiError } from "@/lib/api/errors";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { withSession, type SessionContext } from "@/lib/api/with-session";
import { logger } from "@/lib/logger";
import { addTeamMember, removeMember } from "@/lib/merchants/team";
import { findViewer } from "@/lib/identity/membership";
import { setUpTestDb, unique } from "./helpers/db";
import { teamMerchant, type InvoiceMerchant } from "./helpers/invoice-fixtures";

const t = setUpTestDb();
let m: InvoiceMerchant;
let ownerId: string;
let supportId: string;

beforeAll(async () => {
  ({ ownerId, supportId, ...m } = await teamMerchant(t.db));
});

let loggedErrors: unknown[] = [];
beforeEach(() => {
  resetRateLimits();
  session.userId = undefined;
  loggedErrors = [];
  vi.spyOn(logger, "info").mockImplementation(() => {});
  vi.spyOn(logger, "error").mockImplementation((...args: unknown[]) => void loggedErrors.push(args));
});
afterEach(() => {
  vi.restoreAllMocks();
});

type Answer = {
  status: number;
  headers: Headers;
  json: { data?: unknown; errors?: { status: string; code: string; detail: string }[]; meta?: { request_id?: string } };
};

async function call<P>(handler: ReturnType<typeof withSession<P>>, params: P, path = "/api/dashboard/x"): Promise<Answer> {
  const response = await handler(new Request(`http://test${path}`), { params: Promise.resolve(params) });
  return { status: response.status, headers: response.headers, json: await response.json() };
}

function expectPrivate(answer: Answer) {
  expect(answer.headers.get("cache-control")).toBe("no-store");
  expect(answer.headers.get("x-request-id")).toMatch(/\S/);
}

function expectError(answer: Answer, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.headers.get("content-type")).toBe("application/vnd.api+json");
  expect(answer.json.errors).toEqual([expect.objectContaining({ status: String(status), code })]);
  expect(answer.json.meta?.request_id).toBe(answer.headers.get("x-request-id"));
  expectPrivate(answer);
}

describe("withSession", () => {
  const seen: SessionContext<{ id: string }>[] = [];
  const ownerOnly = withSession<{ id: string }>(
    async (ctx) => {
      seen.push(ctx);
      return Response.json({ data: { merchant: ctx.viewer.merchant.id, id: ctx.params.id } });
    },
    { can: "team.manage" },
  );
  beforeEach(() => {
    seen.length = 0;
  });

  it("answers 401 as JSON:API without a session, and never runs the handler", async () => {
    expectError(await call(ownerOnly, { id: "a" }), 401, "unauthorized");
    expect(seen).toEqual([]);
  });

  it("answers 401 when the signed-in person is no longer a member", async () => {
    const gone = await addTeamMember(t.db, m.merchantId, {
      name: "Gone",
      email: `${unique("gone")}@example.com`,
      role: "support",
      password: "support-pass-99",
    });
    if (!gone.ok) throw new Error("setup");
    const viewer = (await findViewer(t.db, ownerId))!;
    expect((await removeMember(t.db, viewer, gone.value.id)).ok).toBe(true);
    session.userId = gone.value.id;
    expectError(await call(ownerOnly, { id: "a" }), 401, "unauthorized");
  });

  it("answers 403 as JSON:API to a role the route does not allow", async () => {
    session.userId = supportId;
    const answer = await call(ownerOnly, { id: "a" });
    expectError(answer, 403, "forbidden");
    expect(answer.json.errors![0]!.detail).toBe("Your role (Support) may not invite members, change their roles and remove them.");
    expect(seen).toEqual([]);
  });

  it("runs the handler with the viewer and params, answering privately", async () => {
    session.userId = ownerId;
    const answer = await call(ownerOnly, { id: "inv_1" });
    expect(answer.status).toBe(200);
    expect(answer.json).toEqual({ data: { merchant: m.merchantId, id: "inv_1" } });
    expectPrivate(answer);
    expect(seen[0]!.viewer.user).toMatchObject({ id: ownerId, role: "owner" });
    expect(seen[0]!.viewer.user).not.toHaveProperty("passwordHash");
    expect(seen[0]!.requestId).toBe(answer.headers.get("x-request-id"));
  });

  it("lets any member in when no role is named", async () => {
    session.userId = supportId;
    const anyone = withSession(async ({ viewer }) => Response.json({ data: viewer.user.role }));
    expect((await call(anyone, {})).json).toEqual({ data: "support" });
  });

  it("maps thrown errors like withApiKey: ApiError as itself, anything else as a logged 500", async () => {
    session.userId = ownerId;
    const refusing = withSession(async () => {
      throw new ApiError(409, "conflict", "Conflict", "Try again");
    });
    expectError(await call(refusing, {}), 409, "conflict");
    const crashing = withSession(async () => {
      throw new Error("boom");
    });
    expectError(await call(crashing, {}), 500, "internal_error");
    expect(loggedErrors).toHaveLength(1);
  });
});

describe("the dashboard's invoice routes", () => {
  it("refuse visitors without a session", async () => {
    expectError(await call(LIST, {}, "/api/dashboard/invoices"), 401, "unauthorized");
    expectError(await call(ONE, { id: "cpi_x" }, "/api/dashboard/invoices/cpi_x"), 401, "unauthorized");
  });

  it("answer a member with the merchant's invoices, and 404 as JSON:API for an unknown one", async () => {
    session.userId = supportId;
    const list = await call(LIST, {}, "/api/dashboard/invoices?status=bogus");
    expect(list.status).toBe(200);
    expect(list.json.data).toMatchObject({ invoices: [] });
    expectPrivate(list);
    expectError(await call(ONE, { id: "cpi_unknown" }, "/api/dashboard/invoices/cpi_unknown"), 404, "not_found");
  });
});
