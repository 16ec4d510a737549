import { readEnvelope } from "@/lib/api/envelope";
import { ApiValidationError } from "@/lib/api/errors";
import { refuseOtherMode } from "@/lib/api/key-mode";
import { otherMethods } from "@/lib/api/methods";
import { readJsonBody } from "@/lib/api/request";
import { jsonApi } from "@/lib/api/responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { newId } from "@/lib/ids";
import { problemsFromZod } from "@/lib/problems";
import { toSimulationAttributes } from "@/lib/api/routing-resource";
import { simulateRouting, simulationInputSchema } from "@/lib/routing/simulate";

/**
 * What routing would do with an invoice of these attributes (the routing simulator): the same
 * decision invoice creation makes, over the saved rules or the draft `rules` sent. Creates nothing.
 * In the API key's mode only: a test key does not learn how live invoices are routed.
 */
export const POST = withApiKey(
  async ({ request, merchant, db, keyMode }) => {
    const { attributes } = readEnvelope(await readJsonBody(request, { exactNumbersAt: [["data", "attributes", "amount"]] }), "routing-simulation");
    const parsed = simulationInputSchema.safeParse(attributes);
    if (!parsed.success) throw new ApiValidationError(problemsFromZod(parsed.error.issues, { input: attributes }));
    refuseOtherMode(keyMode, parsed.data.test_mode === true ? "test" : "live", "/data/attributes/test_mode");
    const simulated = await simulateRouting(db, merchant.id, parsed.data);
    if (!simulated.ok) throw new ApiValidationError(simulated.problems);
    return jsonApi({ data: { type: "routing-simulation", id: newId("sim"), attributes: toSimulationAttributes(simulated.value) } });
  },
  { changesNothing: true },
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
