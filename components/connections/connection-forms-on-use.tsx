"use client";

import { hydrateOnUse } from "@/components/forms/hydrate-on-use";

/** The connection page's forms as the server renders them, each made live on its first use (components/forms/hydrate-on-use.tsx). */
export const EditConnectionFormOnUse = hydrateOnUse(() => import("./edit-connection-form").then((m) => m.EditConnectionForm), "edit-connection");
export const ConstantsPanelOnUse = hydrateOnUse(() => import("./constants-panel").then((m) => m.ConstantsPanel), "constants");
