import "server-only";
import { readEnvelope, refuseClientGeneratedId } from "@/lib/api/envelope";
import { ApiValidationError } from "@/lib/api/errors";
import { managedMode, notFoundForKey } from "@/lib/api/key-mode";
import { readJsonBody } from "@/lib/api/request";
import { jsonApi } from "@/lib/api/responses";
import { apiKeyActor, apiKeyName } from "@/lib/audit/record";
import { publicBaseUrl } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { problemsFromZod } from "@/lib/problems";
import type { Mode } from "@/lib/providers";
import { blocklistEntrySchema } from "@/lib/risk/blocklist";
import { addBlocklistEntry, findBlocklistEntry, listBlocklist, removeBlocklistEntry, type BlocklistView } from "@/lib/risk/store";

/**
 * The blocklist over the API (`/api/risk/blocklist`, JSON:API type "blocklist-entries"): the key's
 * mode only, as the management API (a test key never reads or changes live entries). A card entry
 * shows its brand and last four, never a number nor its fingerprint.
 */
const BLOCKLIST_PATH = "/api/risk/blocklist";
const BLOCKLIST_TYPE = "blocklist-entries";

function toBlocklistResource(view: BlocklistView, baseUrl = publicBaseUrl()) {
  return {
    id: view.id,
    type: BLOCKLIST_TYPE,
    attributes: {
      kind: view.kind,
      value: view.label,
      note: view.note,
      test_mode: view.testMode,
      created_by: view.createdBy,
      created: view.createdAt.toISOString(),
    },
    links: { self: `${baseUrl}${BLOCKLIST_PATH}/${view.id}` },
  };
}

export async function blocklistListResponse(db: Db, merchantId: string, keyMode: Mode | undefined): Promise<Response> {
  const views = await listBlocklist(db, merchantId, managedMode(keyMode));
  return jsonApi({ data: views.map((view) => toBlocklistResource(view)), meta: { count: views.length } });
}

export async function blocklistEntryResponse(db: Db, merchantId: string, id: string, keyMode: Mode | undefined): Promise<Response> {
  const view = await findBlocklistEntry(db, merchantId, managedMode(keyMode), id);
  if (!view) throw notFoundForKey(keyMode, `blocklist entry ${id}`);
  return jsonApi({ data: toBlocklistResource(view) });
}

/** POST: 201 with the entry (the same value again: 201 with the entry already there), audited. */
export async function addBlocklistResponse(db: Db, request: Request, merchantId: string, keyId: string, keyMode: Mode | undefined): Promise<Response> {
  const mode = managedMode(keyMode);
  const body = await readJsonBody(request);
  refuseClientGeneratedId(body);
  const { attributes } = readEnvelope(body, BLOCKLIST_TYPE);
  const parsed = blocklistEntrySchema.safeParse(attributes);
  if (!parsed.success) throw new ApiValidationError(problemsFromZod(parsed.error.issues, { input: attributes }));
  const actor = apiKeyActor(keyId, await apiKeyName(db, merchantId, keyId));
  const view = await addBlocklistEntry(db, { merchantId, actor, mode }, parsed.data);
  const resource = toBlocklistResource(view);
  return jsonApi({ data: resource }, { status: 201, headers: { Location: resource.links.self } });
}

export async function removeBlocklistResponse(db: Db, merchantId: string, id: string, keyId: string, keyMode: Mode | undefined): Promise<Response> {
  const actor = apiKeyActor(keyId, await apiKeyName(db, merchantId, keyId));
  if (!(await removeBlocklistEntry(db, { merchantId, actor, mode: managedMode(keyMode) }, id))) throw notFoundForKey(keyMode, `blocklist entry ${id}`);
  return new Response(null, { status: 204 });
}
