"use client";

import { hydrateOnUse } from "@/components/forms/hydrate-on-use";

/** A kind's 'New connection' form as the server renders it, made live on its first use (components/forms/hydrate-on-use.tsx). */
export const NewConnectionFormOnUse = hydrateOnUse(() => import("./new-connection-form").then((m) => m.NewConnectionForm), "new-connection");
