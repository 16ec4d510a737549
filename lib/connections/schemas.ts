import { z } from "zod";
import { compactConstants, constantsSchema, type ConstantValues } from "@/lib/customers";
import {
  CONNECTION_KINDS,
  MODES,
  PROVIDERS,
  credentialsSchema,
  getKind,
  getProvider,
  modeOf,
  validateCredentials,
  type CredentialValues,
  type KindSpec,
  type Mode,
} from "@/lib/providers";

/**
 * The connection's shape as a form, a server action and the management API send it.
 * Isomorphic: the browser validates with the same schema before the server does again.
 */
export const labelSchema = z.string({ error: "Label is required" }).trim().min(1, "Label is required").max(80, "Label must be at most 80 characters");

const credentialsInput = z.record(z.string(), z.unknown(), { error: "Credentials must be an object of field values" });
const constantsInput = z.record(z.string(), z.unknown(), { error: "Constants must be an object keyed by constant name" });

type Ctx = z.core.$RefinementCtx<unknown>;

/** One issue per unknown credential field, like validateCredentials, so each gets its own pointer. */
function unknownKeyIssues(issue: z.core.$ZodIssue): { path: (string | number)[]; message: string }[] {
  if (issue.code === "unrecognized_keys") return issue.keys.map((key) => ({ path: [key], message: `Unknown credential field "${key}"` }));
  return [{ path: issue.path.map((p) => (typeof p === "number" ? p : String(p))), message: issue.message }];
}

function addIssues(ctx: Ctx, prefix: string, issues: readonly { path: readonly (string | number)[]; message: string }[]) {
  for (const issue of issues) ctx.addIssue({ code: "custom", path: [prefix, ...issue.path], message: issue.message });
}

function checkConstants(ctx: Ctx, kind: KindSpec, providerName: string, input: Record<string, unknown> | undefined) {
  if (!input || Object.keys(input).length === 0) return {} as ConstantValues;
  if (kind.constants.length === 0) {
    ctx.addIssue({ code: "custom", path: ["constants"], message: `${providerName} ${kind.label} has no constants` });
    return {};
  }
  const parsed = constantsSchema(kind.constants).safeParse(input);
  if (!parsed.success) {
    addIssues(
      ctx,
      "constants",
      parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
    );
    return {};
  }
  return parsed.data;
}

function findKind(ctx: Ctx, provider: string, kind: string): KindSpec | undefined {
  const spec = getProvider(provider);
  if (!spec) {
    const known = PROVIDERS.map((p) => p.slug).join(", ");
    ctx.addIssue({ code: "custom", path: ["provider"], message: `Unknown provider "${provider}"; use one of ${known}` });
    return undefined;
  }
  const found = getKind(provider, kind);
  if (!found) {
    const offered = spec.kinds.map((k) => k.kind).join(", ");
    ctx.addIssue({ code: "custom", path: ["kind"], message: `${spec.name} offers only: ${offered}` });
  }
  return found;
}

const providerInput = z.string({ error: "Provider is required" }).min(1, "Provider is required");
const kindInput = z.enum(CONNECTION_KINDS, { error: "Kind must be provider_account or h2h" });
const modeInput = z.enum(MODES, { error: "Mode must be test or live" });

/** Parses one attribute, reporting its issues under its own name; the caller goes on with the others. */
function take<T>(ctx: Ctx, name: string, schema: z.ZodType<T>, value: unknown): T | undefined {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  addIssues(
    ctx,
    name,
    parsed.error.issues.map((i) => ({ path: i.path.map(String), message: i.message })),
  );
  return undefined;
}

/**
 * Every attribute is checked even when another one fails, so a form or an API client learns
 * all its problems at once (zod skips a transform when the object before it has issues).
 */
export const createConnectionSchema = z
  .object({
    provider: z.unknown().optional(),
    kind: z.unknown().optional(),
    label: z.unknown().optional(),
    mode: z.unknown().optional(),
    credentials: z.unknown().optional(),
    constants: z.unknown().optional(),
  })
  .transform((value, ctx) => {
    const provider = take(ctx, "provider", providerInput, value.provider);
    const kindSlug = take(ctx, "kind", kindInput, value.kind);
    const label = take(ctx, "label", labelSchema, value.label);
    const chosenMode = take(ctx, "mode", modeInput.optional(), value.mode ?? undefined);
    const credentials = take(ctx, "credentials", credentialsInput, value.credentials ?? {});
    const constantsIn = take(ctx, "constants", constantsInput.optional(), value.constants ?? undefined);
    const kind = provider && kindSlug ? findKind(ctx, provider, kindSlug) : undefined;
    if (!kind || !credentials) return z.NEVER;
    // Every kind takes the Test/Live choice; only a legacy Provider F client may give it as `test_mode`.
    const legacyMode = kind.modeField !== undefined && typeof credentials[kind.modeField] === "boolean";
    if (!chosenMode && value.mode === undefined && !legacyMode) {
      ctx.addIssue({ code: "custom", path: ["mode"], message: "Choose test or live mode" });
    }
    const mode: Mode = chosenMode ?? modeOf(kind, credentials, "test");
    const checked = validateCredentials(kind, credentials, mode);
    if (!checked.ok) addIssues(ctx, "credentials", checked.problems);
    const constants = checkConstants(ctx, kind, getProvider(provider!)!.name, constantsIn);
    if (!checked.ok || label === undefined) return z.NEVER;
    return { provider: provider!, kind: kindSlug!, label, mode, credentials: checked.value, constants: compactConstants(constants) };
  });

export type CreateConnection = z.output<typeof createConnectionSchema>;

/**
 * Edits: every attribute optional; a blank secret keeps the stored one. Credentials are checked
 * field by field here and again, merged with the stored values, by the server.
 */
export function updateConnectionSchema(kind: KindSpec) {
  return z
    .object({
      label: z.unknown().optional(),
      mode: z.unknown().optional(),
      enabled: z.unknown().optional(),
      credentials: z.unknown().optional(),
      constants: z.unknown().optional(),
    })
    .transform((value, ctx) => {
      const label = take(ctx, "label", labelSchema.optional(), value.label ?? undefined);
      const mode = take(ctx, "mode", modeInput.optional(), value.mode ?? undefined);
      const enabled = take(ctx, "enabled", z.boolean({ error: "Enabled must be true or false" }).optional(), value.enabled);
      const credentialsIn = take(ctx, "credentials", credentialsInput.optional(), value.credentials ?? undefined);
      const constantsIn = take(ctx, "constants", constantsInput.optional(), value.constants ?? undefined);
      let credentials: CredentialValues | undefined;
      if (credentialsIn) {
        // Only the fields sent change (a PATCH may rotate one secret); rules spanning fields run on
        // the stored values merged with these, in updateConnection.
        const checked = credentialsSchema(kind, { forUpdate: true }).partial().safeParse(credentialsIn);
        if (checked.success) credentials = Object.fromEntries(Object.keys(credentialsIn).map((k) => [k, (checked.data as CredentialValues)[k]]));
        else
          addIssues(
            ctx,
            "credentials",
            checked.error.issues.flatMap((i) => unknownKeyIssues(i)),
          );
      }
      const constants = constantsIn === undefined ? undefined : checkConstants(ctx, kind, "This provider", constantsIn);
      return { label, mode, enabled, credentials, constants };
    });
}

export type UpdateConnection = z.output<ReturnType<typeof updateConnectionSchema>>;
