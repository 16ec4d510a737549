import { otherMethods } from "@/lib/api/methods";
import { jsonApi } from "@/lib/api/responses";
import { withApiKey } from "@/lib/api/with-api-key";
import { getRoutingOrders } from "@/lib/routing/orders";
import { toRoutingOrderResource } from "@/lib/routing/resource";

/** Every service × mode the merchant has a connection for, with its routing order. */
export const GET = withApiKey(async ({ merchant, db }) => {
  const orders = await getRoutingOrders(db, merchant.id);
  return jsonApi({ data: orders.map(toRoutingOrderResource), meta: { count: orders.length } });
});

const other = otherMethods(["GET"]);
export const POST = other.POST;
export const PUT = other.PUT;
export const PATCH = other.PATCH;
export const DELETE = other.DELETE;
export const OPTIONS = other.OPTIONS;
