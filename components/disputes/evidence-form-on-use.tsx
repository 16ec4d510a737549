"use client";

import { hydrateOnUse } from "@/components/forms/hydrate-on-use";

/** The evidence form as the server renders it; its script (react-hook-form, the schema, the actions) loads on first use. */
export const EvidenceFormOnUse = hydrateOnUse(() => import("./evidence-form").then((m) => m.EvidenceForm), "dispute-evidence");
