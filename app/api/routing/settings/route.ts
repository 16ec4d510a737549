import { readEnvelope } from "@/lib/api/envelope";
import { ApiError, ApiValidationError } from "@/lib/api/errors";
import { refuseSharedChange } from "@/lib/api/key-mode";
import { otherMethods } from "@/lib/api/methods";
import { readJsonBody } from "@/lib/api/request";
import { jsonApi } from "@/lib/api/responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { apiKeyName } from "@/lib/audit/record";
import { apiKeyActor } from "@/lib/connections/scope";
import { problemsFromZod } from "@/lib/problems";
import { successSettingsSchema } from "@/lib/routing/success-settings";
import { getSuccessSettings, saveSuccessSettings, toSettingsAttributes } from "@/lib/routing/success-stats";
import type { SuccessSettings } from "@/lib/routing/success";

/** The merchant's success-rate ordering settings as one resource (type "routing-settings", id "routing-settings"). */
function resource(settings: SuccessSettings) {
  return { type: "routing-settings", id: "routing-settings", attributes: toSettingsAttributes(settings) };
}

const gone = () => new ApiError(404, "not_found", "Not found", "Your merchant account no longer exists");

export const GET = withApiKey(async ({ merchant, db }) => {
  const settings = await getSuccessSettings(db, merchant.id);
  if (!settings) throw gone();
  return jsonApi({ data: resource(settings) });
});

/**
 * Saves the window, the minimum sample and the exploration share (all three), audited; routing reads
 * them at once. They steer both modes' routing, so only a live key may change them.
 */
export const PATCH = withApiKey(async ({ request, merchant, keyId, db, keyMode }) => {
  refuseSharedChange(keyMode);
  const { attributes, data } = readEnvelope(await readJsonBody(request), "routing-settings");
  if (data.id !== undefined && data.id !== "routing-settings") {
    throw new ApiError(409, "id_mismatch", "Id does not match", 'data.id must be "routing-settings"', "/data/id");
  }
  const parsed = successSettingsSchema.safeParse(attributes);
  if (!parsed.success) throw new ApiValidationError(problemsFromZod(parsed.error.issues, { input: attributes }));
  const saved = await saveSuccessSettings(db, { merchantId: merchant.id, actor: apiKeyActor(keyId, await apiKeyName(db, merchant.id, keyId)) }, parsed.data);
  if (!saved) throw gone();
  return jsonApi({ data: resource(saved) });
});

export const { POST, PUT, DELETE, OPTIONS } = otherMethods(["GET", "PATCH"]);
