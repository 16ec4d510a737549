import { readEnvelope } from "@/lib/api/envelope";
import { ApiError, ApiValidationError, fieldErrorsToJsonApi, zodIssuesToJsonApi } from "@/lib/api/errors";
import { readJsonBody } from "@/lib/api/request";
import { jsonApi } from "@/lib/api/responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { findConnectionRow, getConnection } from "@/lib/connections/queries";
import { toConnectionResource } from "@/lib/connections/resource";
import { updateConnectionSchema } from "@/lib/connections/schemas";
import { apiKeyActor, connectionScope } from "@/lib/connections/scope";
import { deleteConnection, updateConnection } from "@/lib/connections/service";
import { kindOf } from "@/lib/connections/store";

type Params = { id: string };

function notFound(id: string): ApiError {
  return new ApiError(404, "not_found", "Not found", `No connection ${id} exists for this merchant`);
}

export const GET = withApiKey<Params>(async ({ params, merchant, db }) => {
  const view = await getConnection(db, merchant.id, params.id);
  if (!view) throw notFound(params.id);
  return jsonApi({ data: toConnectionResource(view) });
});

/** Provider and kind are fixed once created: a different provider is a new connection. */
const FIXED = ["provider", "kind"] as const;

export const PATCH = withApiKey<Params>(async ({ request, params, merchant, keyId }) => {
  const scope = await connectionScope(merchant.id, apiKeyActor(keyId));
  const row = await findConnectionRow(scope.db, merchant.id, params.id);
  if (!row) throw notFound(params.id);
  const { attributes } = readEnvelope(await readJsonBody(request), "connection");
  const fixedErrors = FIXED.filter((k) => k in attributes && attributes[k] !== row[k]).map((k) => ({
    path: [k],
    message: `${k} cannot change; create a new connection instead`,
    code: "immutable",
  }));
  const { provider: _p, kind: _k, ...changes } = attributes;
  const parsed = updateConnectionSchema(kindOf(row)).safeParse(changes);
  const errors = [...fieldErrorsToJsonApi(fixedErrors), ...(parsed.success ? [] : zodIssuesToJsonApi(parsed.error.issues))];
  if (errors.length || !parsed.success) throw new ApiValidationError(errors);
  const updated = await updateConnection(scope, row.id, parsed.data);
  if (!updated) throw notFound(params.id);
  if (!updated.ok) throw new ApiValidationError(fieldErrorsToJsonApi(updated.errors));
  return jsonApi({ data: toConnectionResource(updated.value) });
});

export const DELETE = withApiKey<Params>(async ({ params, merchant, keyId }) => {
  if (!(await deleteConnection(await connectionScope(merchant.id, apiKeyActor(keyId)), params.id))) throw notFound(params.id);
  return new Response(null, { status: 204 });
});
