import type { Db } from "@/lib/db/client";
import type { Mode } from "@/lib/providers";
import { getRoutingOrders, type RoutingOrder } from "@/lib/routing/orders";

/** The routing page in the dashboard's Test/Live view: only that mode's orders. */
export async function getRoutingOrdersInView(db: Db, merchantId: string, mode: Mode): Promise<RoutingOrder[]> {
  return (await getRoutingOrders(db, merchantId)).filter((order) => order.mode === mode);
}
