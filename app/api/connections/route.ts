import { readEnvelope, refuseClientGeneratedId } from "@/lib/api/envelope";
import { otherMethods } from "@/lib/api/methods";
import { ApiValidationError } from "@/lib/api/errors";
import { managedMode, refuseOtherMode, refuseOtherModeParameter } from "@/lib/api/key-mode";
import { readJsonBody } from "@/lib/api/request";
import { jsonApi } from "@/lib/api/responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { listConnections } from "@/lib/connections/queries";
import { toConnectionResource } from "@/lib/api/connection-resource";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { apiKeyActor, connectionScope } from "@/lib/connections/scope";
import { createConnection } from "@/lib/connections/service";
import { problem, problemsFromZod, type Problem } from "@/lib/problems";
import { getKind } from "@/lib/providers";

const LIST_PARAMETERS = ["filter[provider]", "filter[mode]", "filter[state]"] as const;
const CHOICES = { "filter[mode]": ["test", "live"], "filter[state]": ["enabled", "disabled"] } as const;

/** A filter value outside its set is a 400 naming the parameter, never silently ignored (that would list everything). */
function readChoice<N extends keyof typeof CHOICES>(search: URLSearchParams, name: N, problems: Problem[]): (typeof CHOICES)[N][number] | undefined {
  const value = search.get(name);
  if (value === null) return undefined;
  const choices: readonly string[] = CHOICES[name];
  if (choices.includes(value)) return value as (typeof CHOICES)[N][number];
  problems.push(problem("invalid_parameter", `${name} must be one of ${choices.join(", ")}`, [name]));
  return undefined;
}

/** The API key's mode only; filter[mode] naming the other mode is refused rather than answered with an empty list. */
export const GET = withApiKey(
  async ({ request, merchant, db, keyMode }) => {
    const search = new URL(request.url).searchParams;
    const problems: Problem[] = [];
    const mode = readChoice(search, "filter[mode]", problems);
    const state = readChoice(search, "filter[state]", problems);
    if (problems.length > 0) throw new ApiValidationError(problems, { status: 400, source: "parameter" });
    refuseOtherModeParameter(keyMode, mode, "filter[mode]");
    const views = await listConnections(db, merchant.id, { provider: search.get("filter[provider]") ?? undefined, mode: managedMode(keyMode), state });
    return jsonApi({ data: views.map(toConnectionResource), meta: { count: views.length } });
  },
  { query: LIST_PARAMETERS },
);

/** A connection of the API key's mode only: a test key making a live one is 403 key_mode_mismatch, nothing stored. */
export const POST = withApiKey(async ({ request, merchant, keyId, keyMode }) => {
  const body = await readJsonBody(request);
  refuseClientGeneratedId(body);
  const { attributes } = readEnvelope(body, "connection");
  const parsed = createConnectionSchema.safeParse(attributes);
  if (!parsed.success) throw new ApiValidationError(problemsFromZod(parsed.error.issues));
  // The mode comes from `mode`, or from an older Provider F client's credential flag.
  const modeField = attributes.mode == null ? getKind(parsed.data.provider, parsed.data.kind)?.modeField : undefined;
  refuseOtherMode(keyMode, parsed.data.mode, modeField ? `/data/attributes/credentials/${modeField}` : "/data/attributes/mode");
  const created = await createConnection(await connectionScope(merchant.id, apiKeyActor(keyId)), parsed.data);
  if (!created.ok) throw new ApiValidationError(created.problems);
  const resource = toConnectionResource(created.value);
  return jsonApi({ data: resource }, { status: 201, headers: { Location: resource.links!.self } });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
