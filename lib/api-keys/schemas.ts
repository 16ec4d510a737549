import { z } from "zod";
import { API_KEY_MODES, API_KEY_SCOPES, ROLL_GRACES } from "./choices";

export const createApiKeySchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(80, "Name must be at most 80 characters"),
  mode: z.enum(API_KEY_MODES, { error: "Choose test or live" }),
  scope: z.enum(API_KEY_SCOPES, { error: "Choose full access or read only" }),
});

export const revokeApiKeySchema = z.object({ id: z.string().min(1) });

export const rollApiKeySchema = z.object({
  id: z.string().min(1),
  grace: z.enum(ROLL_GRACES, { error: "Choose how long the old key keeps working" }),
});
