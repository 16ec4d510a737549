"use client";

import { hydrateOnUse } from "@/components/forms/hydrate-on-use";

/** The routing page's editors as the server renders them, each made live on its first use (components/forms/hydrate-on-use.tsx). */
export const RoutingSimulatorOnUse = hydrateOnUse(() => import("./routing-simulator").then((m) => m.RoutingSimulator), "routing-simulator");
export const RoutingOrderEditorOnUse = hydrateOnUse(() => import("./routing-order-editor").then((m) => m.RoutingOrderEditor), "routing-order");
export const RoutingHistoryOnUse = hydrateOnUse(() => import("./routing-history").then((m) => m.RoutingHistory), "routing-history");
export const SuccessSettingsFormOnUse = hydrateOnUse(() => import("./success-settings-form").then((m) => m.SuccessSettingsForm), "success-settings");
