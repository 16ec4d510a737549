import { readEnvelope } from "@/lib/api/envelope";
import { ApiValidationError } from "@/lib/api/errors";
import { readJsonBody } from "@/lib/api/request";
import { jsonApi } from "@/lib/api/responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { listConnections } from "@/lib/connections/queries";
import { toConnectionResource } from "@/lib/connections/resource";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { apiKeyActor, connectionScope } from "@/lib/connections/scope";
import { createConnection } from "@/lib/connections/service";
import { problemsFromZod } from "@/lib/problems";

export const GET = withApiKey(async ({ request, merchant, db }) => {
  const search = new URL(request.url).searchParams;
  const mode = search.get("filter[mode]");
  const state = search.get("filter[state]");
  const views = await listConnections(db, merchant.id, {
    provider: search.get("filter[provider]") ?? undefined,
    mode: mode === "test" || mode === "live" ? mode : undefined,
    state: state === "enabled" || state === "disabled" ? state : undefined,
  });
  return jsonApi({ data: views.map(toConnectionResource), meta: { count: views.length } });
});

export const POST = withApiKey(async ({ request, merchant, keyId }) => {
  const { attributes } = readEnvelope(await readJsonBody(request), "connection");
  const parsed = createConnectionSchema.safeParse(attributes);
  if (!parsed.success) throw new ApiValidationError(problemsFromZod(parsed.error.issues));
  const created = await createConnection(await connectionScope(merchant.id, apiKeyActor(keyId)), parsed.data);
  if (!created.ok) throw new ApiValidationError(created.problems);
  const resource = toConnectionResource(created.value);
  return jsonApi({ data: resource }, { status: 201, headers: { Location: resource.links!.self } });
});
