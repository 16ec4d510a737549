import { z } from "zod";

export const createApiKeySchema = z.object({
  name: z.string().trim().min(1, "Name is required").max(80, "Name must be at most 80 characters"),
});

export const revokeApiKeySchema = z.object({ id: z.string().min(1) });
