"use client";

import { useEffect, useState } from "react";
import { simulateRoutingAction } from "@/lib/actions/routing";
import type { ComposerValues } from "@/lib/composer/form-values";
import { routingReasonText } from "@/lib/routing/reason";

/** Where routing would send the composed invoice: the first connection and why, in the invoice page's words. */
export type RoutePreview = { connectionIds: string[]; labels: string[]; reasonText: string };

/**
 * Asks the simulator (the same decision invoice creation makes, over the saved rules) where this
 * invoice would go, a moment after the service, mode, amount or customer country last changed. A
 * static reading of the routing order would ignore the rules, which may send it elsewhere.
 * Undefined while nothing is known yet (no service or amount, or the simulator refused it).
 */
export function useRoutePreview(values: ComposerValues, enabled: boolean): RoutePreview | undefined {
  const [preview, setPreview] = useState<{ key: string; value: RoutePreview | undefined }>();
  const country = values.customer_placement === "none" ? "" : values.customer.address.country.trim();
  const amount = values.amount.trim();
  const key = JSON.stringify([values.service, values.test_mode, amount, country]);
  const ready = enabled && values.service !== "" && amount !== "";
  useEffect(() => {
    if (!ready) return;
    let current = true;
    const timer = setTimeout(async () => {
      const answer = await simulateRoutingAction({
        service: values.service,
        test_mode: values.test_mode,
        amount,
        ...(/^[A-Za-z]{2}$/.test(country) ? { customer_country: country } : {}),
      }).catch(() => undefined);
      if (!current) return;
      const value =
        answer?.ok && answer.data.connection_ids.length > 0
          ? {
              connectionIds: answer.data.connection_ids,
              labels: answer.data.connections.map((c) => c.label),
              // The routing order is the default rule: a decision without a rule is "routing_order" as stored.
              reasonText: routingReasonText("routing_order", answer.data.rule),
            }
          : undefined;
      setPreview({ key, value });
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [ready, key, values.service, values.test_mode, amount, country]);
  return ready && preview?.key === key ? preview.value : undefined;
}
