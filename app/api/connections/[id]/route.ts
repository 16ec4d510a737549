import { findKeyConnection } from "@/lib/api/connection-lookup";
import { readEnvelope } from "@/lib/api/envelope";
import { ApiValidationError } from "@/lib/api/errors";
import { notFoundForKey } from "@/lib/api/key-mode";
import { readJsonBody } from "@/lib/api/request";
import { otherMethods } from "@/lib/api/methods";
import { jsonApi } from "@/lib/api/responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { toConnectionResource } from "@/lib/api/connection-resource";
import { toConnectionView } from "@/lib/connections/store";
import { apiKeyActor, connectionScope } from "@/lib/connections/scope";
import { deleteConnection, editConnection } from "@/lib/connections/service";

type Params = { id: string };

/** Only the API key's mode is found (findKeyConnection): a test key never reads or changes a live connection. */
export const GET = withApiKey<Params>(async ({ params, merchant, db, keyMode }) => {
  return jsonApi({ data: toConnectionResource(toConnectionView(await findKeyConnection(db, merchant.id, params.id, keyMode))) });
});

/** Existence is checked before the body is read, so a stranger learns nothing from body errors. */
export const PATCH = withApiKey<Params>(async ({ request, params, merchant, keyId, keyMode }) => {
  const scope = await connectionScope(merchant.id, apiKeyActor(keyId));
  await findKeyConnection(scope.db, merchant.id, params.id, keyMode);
  const { attributes } = readEnvelope(await readJsonBody(request), "connection");
  const edited = await editConnection(scope, params.id, attributes);
  if (!edited) throw notFoundForKey(keyMode, `connection ${params.id}`);
  if (!edited.ok) throw new ApiValidationError(edited.problems);
  return jsonApi({ data: toConnectionResource(edited.value) });
});

export const DELETE = withApiKey<Params>(async ({ params, merchant, keyId, keyMode }) => {
  const scope = await connectionScope(merchant.id, apiKeyActor(keyId));
  await findKeyConnection(scope.db, merchant.id, params.id, keyMode);
  if (!(await deleteConnection(scope, params.id))) throw notFoundForKey(keyMode, `connection ${params.id}`);
  return new Response(null, { status: 204 });
});

export const { POST, PUT, OPTIONS } = otherMethods<Params>(["GET", "PATCH", "DELETE"]);
