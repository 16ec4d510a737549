import { readEnvelope } from "@/lib/api/envelope";
import { ApiError, ApiValidationError } from "@/lib/api/errors";
import { readJsonBody } from "@/lib/api/request";
import { otherMethods } from "@/lib/api/methods";
import { jsonApi } from "@/lib/api/responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { findConnectionRow, getConnection } from "@/lib/connections/queries";
import { toConnectionResource } from "@/lib/connections/resource";
import { apiKeyActor, connectionScope } from "@/lib/connections/scope";
import { deleteConnection, editConnection } from "@/lib/connections/service";

type Params = { id: string };

function notFound(id: string): ApiError {
  return new ApiError(404, "not_found", "Not found", `No connection ${id} exists for this merchant`);
}

export const GET = withApiKey<Params>(async ({ params, merchant, db }) => {
  const view = await getConnection(db, merchant.id, params.id);
  if (!view) throw notFound(params.id);
  return jsonApi({ data: toConnectionResource(view) });
});

/** Existence is checked before the body is read, so a stranger learns nothing from body errors. */
export const PATCH = withApiKey<Params>(async ({ request, params, merchant, keyId }) => {
  const scope = await connectionScope(merchant.id, apiKeyActor(keyId));
  if (!(await findConnectionRow(scope.db, merchant.id, params.id))) throw notFound(params.id);
  const { attributes } = readEnvelope(await readJsonBody(request), "connection");
  const edited = await editConnection(scope, params.id, attributes);
  if (!edited) throw notFound(params.id);
  if (!edited.ok) throw new ApiValidationError(edited.problems);
  return jsonApi({ data: toConnectionResource(edited.value) });
});

export const DELETE = withApiKey<Params>(async ({ params, merchant, keyId }) => {
  if (!(await deleteConnection(await connectionScope(merchant.id, apiKeyActor(keyId)), params.id))) throw notFound(params.id);
  return new Response(null, { status: 204 });
});

const other = otherMethods<Params>(["GET", "PATCH", "DELETE"]);
export const POST = other.POST;
export const PUT = other.PUT;
export const OPTIONS = other.OPTIONS;
