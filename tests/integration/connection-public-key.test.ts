import { randomBytes } from "node:crypto";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

/** The session cookie is next-auth's business; here `auth()` answers with whoever the test signs in. */
const session = vi.hoisted(() => ({ userId: undefined as string | undefined }));
vi.mock("@/lib/auth", () => ({
  auth: async () => (session.userId ? { user: { id: session.userId } } : null),
}));

import { GET } from "@/app/(dashboard)/connections/[id]/public-key/route";
import { resetRateLimits } from "@/lib/api/rate-limit";
import { createConnection } from "@/lib/connections/service";
import { logger } from "@/lib/logger";
import { generateKeyPair } from "@/lib/providers/server/generate-key-pair";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { createAttributes, parseCreate, scopeFor } from "./helpers/connection-fixtures";
import { setUpTestDb } from "./helpers/db";
import { teamMerchant, type TeamMerchant } from "./helpers/invoice-fixtures";

const t = setUpTestDb();
let m: TeamMerchant;
let other: TeamMerchant;

beforeAll(async () => {
  m = await teamMerchant(t.db);
  other = await teamMerchant(t.db);
});
beforeEach(() => {
  resetRateLimits();
  session.userId = undefined;
  vi.spyOn(logger, "info").mockImplementation(() => {});
});
afterEach(() => vi.restoreAllMocks());

async function connect(merchantId: string, provider: string, kind: "h2h" | "provider_account", credentials?: Record<string, unknown>) {
  const result = await createConnection(
    scopeFor(t.db, merchantId, randomBytes(32)),
    parseCreate(createAttributes(provider, kind, "test", credentials ? { credentials } : {})),
  );
  if (!result.ok) throw new Error(`setup: ${JSON.stringify(result.problems)}`);
  return result.value.id;
}

function download(id: string, field?: string) {
  const query = field ? `?field=${field}` : "";
  return GET(new Request(`http://test/connections/${id}/public-key${query}`), { params: Promise.resolve({ id }) });
}

describe("GET /connections/<id>/public-key (Provider E's public key as a file)", () => {
  it("gives the owner the stored public key as a .pem attachment, and nothing of the private key", async () => {
    const pair = generateKeyPair();
    const credentials = { ...sampleCredentials("provider-e", "h2h", "test"), public_key: pair.publicKeyPem, private_key: pair.privateKeyPem };
    const id = await connect(m.merchantId, "provider-e", "h2h", credentials);
    session.userId = m.ownerId;
    const answer = await download(id);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/x-pem-file");
    expect(answer.headers.get("content-disposition")).toBe('attachment; filename="provider-e-public-key.pem"');
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
    const body = await answer.text();
    expect(body.trim()).toBe(pair.publicKeyPem.trim());
    expect(body).not.toContain("PRIVATE KEY");
  });

  it("refuses the private key field, other merchants, support members and visitors", async () => {
    const id = await connect(m.merchantId, "provider-e", "h2h");
    session.userId = m.ownerId;
    expect((await download(id, "private_key")).status).toBe(404);
    session.userId = other.ownerId;
    expect((await download(id)).status).toBe(404);
    session.userId = m.supportId;
    expect((await download(id)).status).toBe(403);
    session.userId = undefined;
    expect((await download(id)).status).toBe(401);
  });

  it("answers 404 for a connection without a public key file", async () => {
    const id = await connect(m.merchantId, "provider-b", "h2h");
    session.userId = m.ownerId;
    const answer = await download(id);
    expect(answer.status).toBe(404);
    expect((await answer.json()).errors[0].detail).toBe("This connection has no public key to download.");
  });
});
