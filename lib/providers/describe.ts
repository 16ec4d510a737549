import { PROVIDERS } from "./registry";
import type { ConnectionKind, ConstantSpec, FieldInput, FieldOption, FieldSpec, KindSpec, ProviderCapabilities, ProviderSpec, ServiceSpec } from "./types";

/** JSON shapes of `GET /api/providers`: the registry without schemas or functions. */
export type FieldDescription = {
  id: string;
  label: string;
  help: string | null;
  placeholder: string | null;
  input: FieldInput;
  required: boolean;
  secret: boolean;
  options: FieldOption[] | null;
  pem: "public" | "private" | null;
  showWhen: { field: string; equals: string | boolean } | null;
  hidden: boolean;
};

export type KindDescription = {
  kind: ConnectionKind;
  label: string;
  description: string;
  modeField: string | null;
  onePerCurrencyAndMode: { reason: string } | null;
  fields: FieldDescription[];
  constants: ConstantSpec[];
  defaults: Record<string, string>;
};

export type ProviderDescription = {
  slug: string;
  name: string;
  summary: string;
  credentialHelp: string;
  kinds: KindDescription[];
  services: ServiceSpec[];
  /** Card tokens, authorize/capture, partial capture, void, as the folder declares them. */
  capabilities: ProviderCapabilities;
};

export type RegistryDescription = { providers: ProviderDescription[] };

function describeField(field: FieldSpec): FieldDescription {
  return {
    id: field.id,
    label: field.label,
    help: field.help ?? null,
    placeholder: field.placeholder ?? null,
    input: field.input,
    required: field.required,
    secret: field.secret,
    options: field.options ? field.options.map((option) => ({ ...option })) : null,
    pem: field.pem ?? null,
    showWhen: field.showWhen ? { ...field.showWhen } : null,
    hidden: field.hidden ?? false,
  };
}

function describeKind(kind: KindSpec): KindDescription {
  return {
    kind: kind.kind,
    label: kind.label,
    description: kind.description,
    modeField: kind.modeField ?? null,
    onePerCurrencyAndMode: kind.onePerCurrencyAndMode ? { reason: kind.onePerCurrencyAndMode.reason } : null,
    fields: kind.fields.map(describeField),
    constants: kind.constants.map((constant) => ({ ...constant })),
    defaults: { ...kind.defaults },
  };
}

function describeProvider(provider: ProviderSpec): ProviderDescription {
  return {
    slug: provider.slug,
    name: provider.name,
    summary: provider.summary,
    credentialHelp: provider.credentialHelp,
    kinds: provider.kinds.map(describeKind),
    services: provider.services.map((service) => ({ ...service })),
    capabilities: { ...provider.capabilities },
  };
}

export function describeRegistry(): RegistryDescription {
  return { providers: PROVIDERS.map(describeProvider) };
}
