"use client";

import { hydrateOnUse } from "@/components/forms/hydrate-on-use";

/** The composer as the server renders it, made live on the first use (components/forms/hydrate-on-use.tsx). */
export const InvoiceComposerOnUse = hydrateOnUse(() => import("./invoice-composer").then((m) => m.InvoiceComposer), "invoice-composer");
