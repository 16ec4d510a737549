"use server";

import { revalidatePath } from "next/cache";
import { personActor } from "@/lib/connections/scope";
import { getDb } from "@/lib/db/client";
import { saveRoutingOrder } from "@/lib/routing/orders";
import { routingOrderInputSchema } from "@/lib/routing/schemas";
import { ok } from "@/lib/problems";
import { validatedAction } from "./validated-action";

/** The Routing page saves one list at a time; the audit trail names the person. */
export const saveRoutingOrderAction = validatedAction(
  "routing.save",
  { schema: routingOrderInputSchema, role: "owner" },
  async (input, viewer) => {
    const saved = await saveRoutingOrder(await getDb(), { merchantId: viewer.merchant.id, actor: personActor(viewer) }, input);
    if (!saved.ok) return saved;
    revalidatePath("/routing");
    return ok({ id: saved.value.id, connectionIds: saved.value.connections.map((c) => c.connectionId) });
  },
);
