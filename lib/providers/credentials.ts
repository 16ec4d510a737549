import { z } from "zod";
import { problem, problemsFromZod, type Problem, type Result } from "../problems";
import { DEFAULT_MAX_LENGTH } from "./fields";
import { checkPem } from "./pem";
import type { CredentialValues, FieldOption, FieldSpec, KindSpec, Mode } from "./types";

export type CredentialCheckOptions = { forUpdate?: boolean };

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

/** On update a blank secret means "keep the stored one", since secrets never travel back to the form. */
function keepsStoredValue(field: FieldSpec, forUpdate: boolean): boolean {
  return forUpdate && (field.secret || field.input === "key_file");
}

function isShown(field: FieldSpec, credentials: CredentialValues): boolean {
  return field.showWhen === undefined || credentials[field.showWhen.field] === field.showWhen.equals;
}

function requiredString(label: string) {
  return z.string({
    error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`),
  });
}

function textSchema(field: FieldSpec) {
  const max = field.maxLength ?? DEFAULT_MAX_LENGTH;
  const base = requiredString(field.label).trim().min(1, `${field.label} is required`).max(max, `${field.label} must be at most ${max} characters`);
  return field.pattern ? base.regex(field.pattern.regex, field.pattern.message) : base;
}

function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname !== "";
  } catch {
    return false;
  }
}

function enumSchema(label: string, options: readonly FieldOption[]): z.ZodType {
  const values = options.map((option) => option.value);
  return z.enum(values as [string, ...string[]], {
    error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be one of: ${values.join(", ")}`),
  });
}

/** The check of one credential value, built from its field's data (./fields). */
export function fieldSchema(field: FieldSpec): z.ZodType {
  const { label } = field;
  switch (field.input) {
    case "text":
    case "secret":
      return textSchema(field);
    case "url":
      return textSchema(field).refine(isHttpsUrl, { message: `${label} must be an https:// URL` });
    case "key_file": {
      const pem = field.pem ?? "private";
      return requiredString(label)
        .superRefine((value, ctx) => {
          const refused = checkPem(value, pem, label);
          if (refused !== null) ctx.addIssue({ code: "custom", message: refused });
        })
        .transform((value) => value.trim());
    }
    case "select":
      return enumSchema(label, field.options ?? []);
    case "multi_select":
      return z
        .array(enumSchema(label, field.options ?? []), { error: `${label} must be a list` })
        .refine((values) => new Set(values).size === values.length, { message: `${label} lists the same feature twice` });
    case "toggle":
      return z.boolean({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be on or off`) });
  }
}

function buildFieldSchema(field: FieldSpec, forUpdate: boolean): z.ZodType {
  const optional = !field.required || field.showWhen !== undefined || keepsStoredValue(field, forUpdate);
  const schema = fieldSchema(field);
  if (!optional) return schema;
  return z.preprocess((value) => (isBlank(value) ? undefined : value), schema.optional());
}

/**
 * The object schema of a kind's credentials. Fields under `showWhen` are optional here because a
 * field schema cannot see its siblings; checkCredentials makes them required when shown.
 */
export function credentialsSchema(kind: KindSpec, options: CredentialCheckOptions = {}) {
  const forUpdate = options.forUpdate ?? false;
  const shape: Record<string, z.ZodType> = {};
  for (const field of kind.fields) shape[field.id] = buildFieldSchema(field, forUpdate);
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys" ? `Unknown credential ${issue.keys.length === 1 ? "field" : "fields"}: ${issue.keys.join(", ")}` : undefined,
  });
}

function describeCondition(kind: KindSpec, field: FieldSpec): string {
  const condition = field.showWhen;
  if (condition === undefined) return "";
  const controller = kind.fields.find((candidate) => candidate.id === condition.field);
  const controllerLabel = controller?.label ?? condition.field;
  if (typeof condition.equals === "boolean") return `${controllerLabel} is ${condition.equals ? "on" : "off"}`;
  const option = controller?.options?.find((candidate) => candidate.value === condition.equals);
  return `${controllerLabel} is ${option?.label ?? condition.equals}`;
}

function checkShownFields(kind: KindSpec, credentials: CredentialValues, forUpdate: boolean): Problem[] {
  return kind.fields
    .filter((field) => field.showWhen !== undefined && isShown(field, credentials))
    .filter((field) => isBlank(credentials[field.id]) && !keepsStoredValue(field, forUpdate))
    .map((field) => problem("required", `${field.label} is required when ${describeCondition(kind, field)}`, [field.id]));
}

/**
 * Rules spanning fields. On update, issues about a secret the caller left blank are dropped: the
 * server re-runs this with forUpdate false on the stored values merged with the new ones.
 */
export function checkCredentials(kind: KindSpec, credentials: CredentialValues, mode: Mode, options: CredentialCheckOptions = {}): Problem[] {
  const forUpdate = options.forUpdate ?? false;
  const issues = [...checkShownFields(kind, credentials, forUpdate), ...(kind.refine?.(credentials, mode) ?? [])];
  if (!forUpdate) return issues;
  const blankSecrets = new Set(kind.fields.filter((field) => keepsStoredValue(field, true) && isBlank(credentials[field.id])).map((field) => field.id));
  return issues.filter((issue) => !issue.path.some((segment) => blankSecrets.has(String(segment))));
}

/**
 * The mode a legacy Provider F `test_mode` credential implies. Callers use it only when no mode was
 * chosen (older API clients, stored connections); a chosen Test/Live mode always decides.
 */
export function modeOf(kind: KindSpec, credentials: CredentialValues, chosenMode: Mode): Mode {
  if (kind.modeField === undefined) return chosenMode;
  const value = credentials[kind.modeField];
  if (typeof value !== "boolean") return chosenMode;
  return value ? "test" : "live";
}

/** Values of fields hidden by `showWhen` are dropped: the form may still hold what was typed earlier. */
export function dropInactiveFields(kind: KindSpec, credentials: CredentialValues): CredentialValues {
  const inactive = new Set(kind.fields.filter((field) => !isShown(field, credentials)).map((field) => field.id));
  return Object.fromEntries(Object.entries(credentials).filter(([key]) => !inactive.has(key)));
}

/**
 * Schema plus cross-field rules in one call, with issues in one shape. `mode` is the connection's
 * mode as stored (use modeOf to derive it), so a disagreeing Provider F `test_mode` is reported.
 */
export function validateCredentials(kind: KindSpec, credentials: CredentialValues, mode: Mode, options: CredentialCheckOptions = {}): Result<CredentialValues> {
  const active = dropInactiveFields(kind, credentials);
  const parsed = credentialsSchema(kind, options).safeParse(active);
  if (!parsed.success) {
    // One problem per unknown field (problemsFromZod splits them), each naming its field.
    const problems = problemsFromZod(parsed.error.issues).map((entry) =>
      entry.code === "unrecognized_keys" ? { ...entry, message: `Unknown credential field "${String(entry.path.at(-1))}"` } : entry,
    );
    // The rules spanning fields run on the raw values too, so a form learns every problem at once
    // (Provider D's merchant data fields, required once 'Send merchant data' is on, alongside a
    // missing API URL), never one more on the second submit. A field keeps its own first problem.
    const reported = new Set(problems.map((entry) => String(entry.path[0])));
    const more = checkCredentials(kind, active, mode, options).filter((entry) => !reported.has(String(entry.path[0])));
    return { ok: false, problems: [...problems, ...more] };
  }
  const value = parsed.data as CredentialValues;
  const problems = checkCredentials(kind, value, mode, options);
  return problems.length === 0 ? { ok: true, value } : { ok: false, problems };
}
