import { otherMethods } from "@/lib/api/methods";
import { keyServes } from "@/lib/api/key-mode";
import { jsonApi } from "@/lib/api/responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { getRoutingOrders } from "@/lib/routing/orders";
import { toRoutingOrderResource } from "@/lib/api/routing-resource";

/** Every service the merchant has a connection for in the API key's mode, with its routing order. */
export const GET = withApiKey(async ({ merchant, db, keyMode }) => {
  const orders = (await getRoutingOrders(db, merchant.id)).filter((order) => keyServes(keyMode, order.mode));
  return jsonApi({ data: orders.map(toRoutingOrderResource), meta: { count: orders.length } });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
