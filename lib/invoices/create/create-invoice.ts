import type { Db } from "@/lib/db/client";
import { credentialsKey } from "@/lib/vault/vault-key";
import { keyringOf } from "@/lib/vault";
import { newId } from "@/lib/ids";
import { logger } from "@/lib/logger";
import type { Merchant } from "@/lib/identity/membership";
import type { InvoiceDirection, Mode } from "@/lib/providers";
import { problem, type Problem } from "@/lib/problems";
import { CAPABILITY_ASK_TEXT, capabilityAsksOf, capabilitySkipReason, missingCapability, type CapabilityAsk } from "@/lib/providers/capabilities";
import { PAYMENT_METHOD_PATH, paymentMethodIdOf } from "../contract/saved-cards";
import { validateInvoice } from "../contract/validate-invoice";
import { invoiceValues } from "./invoice-values";
import { checkCreate } from "@/lib/risk/check";
import { customerFacts, RULE_OF_KIND, type BlocklistKind } from "@/lib/risk/blocklist";
import { describeRiskRule } from "@/lib/risk/settings";
import { requestHash } from "./request-hash";
import { findPinnedInvoiceRoute, findRoute, findSavedCardRoute, type Route, type SavedCardHolder } from "./routing";
import { parseAmount } from "@/lib/money";
import type { RouteFacts } from "@/lib/routing/decide";
import { creationFacts } from "@/lib/routing/detail";
import { pinnedConnectionId, type InvoiceEnvelope } from "../contract/schemas";
import { INITIAL_STATUS } from "../state-machine";
import type { InvoiceRow } from "../store";
import { findInvoiceByReference, insertInvoiceOnce } from "./store";

/**
 * The card number as sent (separators removed): the full number, or the mask when the client sent
 * one (spec 4.2). Only a provider call may read it. Not enumerable, so JSON.stringify, the logger
 * and object spreads leave it out; it is never stored.
 */
type ProviderInput = { readonly cardNumberForProvider?: string };

export type CreateInvoiceResult =
  | ({ kind: "created"; invoice: InvoiceRow } & ProviderInput)
  | ({ kind: "replayed"; invoice: InvoiceRow } & ProviderInput)
  | { kind: "conflict"; existing: InvoiceRow; /** The reference belongs to an invoice of the other mode than the key's: not named. */ otherMode?: boolean }
  | { kind: "invalid"; problems: Problem[] }
  | { kind: "forbidden"; commerceAccount: string }
  | { kind: "test_only" }
  | { kind: "key_mode_mismatch"; keyMode: Mode }
  | { kind: "unroutable"; service: string; mode: Mode };

export type CreateInvoiceOptions = {
  requestId?: string;
  /** The caller may create test-mode invoices only (a support member's composer credential). */
  testOnly?: boolean;
  /** The API key's mode: an invoice of the other mode is refused (never routed), so a test key never reaches a live connection. */
  keyMode?: Mode;
  /** Key for the card fingerprint inside the request hash; the process's credentials key by default. */
  secretKey?: () => Buffer;
  /** A saved-card charge (data.relationships.payment_method, found by the caller): routed to its provider's connections only. */
  savedCard?: SavedCardHolder;
};

function sentCommerceAccount(body: unknown): unknown {
  const data = (body as { data?: unknown } | null)?.data;
  const attributes = (data as { attributes?: unknown } | null | undefined)?.attributes;
  return (attributes as { commerce_account?: unknown } | null | undefined)?.commerce_account;
}

function withCard<T extends object>(result: T, cardNumber: string | undefined): T & ProviderInput {
  if (cardNumber !== undefined) Object.defineProperty(result, "cardNumberForProvider", { value: cardNumber, enumerable: false });
  return result;
}

function cardOf(envelope: InvoiceEnvelope<InvoiceDirection>): string | undefined {
  const attributes = envelope.data.attributes;
  return "fields" in attributes ? attributes.fields.card_number : undefined;
}

function hashOf(data: unknown, card: string | undefined, options: CreateInvoiceOptions): string {
  if (card === undefined || !/^\d+$/.test(card)) return requestHash(data);
  return requestHash(data, { fullCardNumber: card, secret: (options.secretKey ?? credentialsKey)() });
}

/**
 * The hashes the same request had under the previous credentials keys of a rotation
 * (CREDENTIALS_KEY_PREVIOUS): a retry sent before the rotation and again after it is still a replay.
 */
function previousHashesOf(data: unknown, card: string | undefined, options: CreateInvoiceOptions): string[] {
  if (card === undefined || !/^\d+$/.test(card)) return [];
  return keyringOf((options.secretKey ?? credentialsKey)()).previous.map((secret) => requestHash(data, { fullCardNumber: card, secret }));
}

/** Same reference again: the original invoice when the body is the same, else a conflict. */
async function replayOrConflict(
  db: Db,
  merchantId: string,
  direction: InvoiceDirection,
  referenceId: string,
  sent: { hash: string; card: string | undefined; previousHashes: () => string[] },
  keyMode?: Mode,
): Promise<CreateInvoiceResult | undefined> {
  const existing = await findInvoiceByReference(db, merchantId, direction, referenceId);
  if (!existing) return undefined;
  // The key's mode decides what it may see: another mode's invoice is never named nor returned.
  if (keyMode && existing.testMode !== (keyMode === "test")) return { kind: "conflict", existing, otherMode: true };
  if (existing.requestHash !== sent.hash && !sent.previousHashes().includes(existing.requestHash)) return { kind: "conflict", existing };
  return withCard({ kind: "replayed" as const, invoice: existing }, sent.card);
}

type Routed = { kind: "routed"; route: Route } | Extract<CreateInvoiceResult, { kind: "invalid" | "unroutable" }>;

/** Where each capability ask (authorize now, save the card) is made in the request: its 422 names that field. */
const ASK_PATHS: Readonly<Record<CapabilityAsk, readonly string[]>> = {
  authorize_capture: ["data", "attributes", "flow"],
  card_tokens: ["data", "attributes", "gateway_options", "cardgate", "tokenize"],
  // Asked by a routing rule (require_three_ds), never by the request: routing passes over such connections itself.
  three_ds: ["data"],
};

function capabilityProblem(ask: CapabilityAsk, detail: string): Problem {
  return problem("capability_not_offered", detail, ASK_PATHS[ask]);
}

/**
 * No connection took an invoice that asks something of its provider: when one would have taken it
 * as a sale, the ask is what is missing, and the 422 names its field (the failure path only: the
 * routing setup is cached, so these lookups cost no query).
 */
async function missingAsk(db: Db, merchantId: string, request: { service: string; mode: Mode; facts: RouteFacts }): Promise<Problem | undefined> {
  const asks = request.facts.asks ?? [];
  if (asks.length === 0) return undefined;
  const routeWith = (only: readonly CapabilityAsk[]) =>
    findRoute(db, merchantId, { service: request.service, mode: request.mode }, { ...request.facts, asks: only });
  if (!(await routeWith([]))) return undefined;
  const where = `No enabled ${request.mode}-mode connection offering ${request.service} is of a provider that can`;
  const fix = "connect one whose provider can (GET /api/providers and the Providers page list what each supports)";
  for (const ask of asks) {
    if (!(await routeWith([ask]))) return capabilityProblem(ask, `${where} ${CAPABILITY_ASK_TEXT[ask]}; ${fix}`);
  }
  // Each ask alone finds a connection, but no provider can do them all.
  const last = asks[asks.length - 1]!;
  return capabilityProblem(last, `${where} ${asks.map((ask) => CAPABILITY_ASK_TEXT[ask]).join(" and ")} at once; ${fix}`);
}

/** The pinned connection when the request names one, else the routing order's first. */
async function routeOf(
  db: Db,
  merchantId: string,
  request: { service: string; mode: Mode; pin: string | undefined; facts: RouteFacts; savedCard?: SavedCardHolder },
): Promise<Routed> {
  const { service, mode, pin, facts } = request;
  if (request.savedCard) {
    // Only the token's provider can charge it: what the invoice asks beyond a sale must be in its reach.
    const missing = missingCapability(request.savedCard.provider, facts.asks ?? []);
    if (missing !== undefined) {
      const reason = capabilitySkipReason(request.savedCard.provider, missing);
      return {
        kind: "invalid",
        problems: [capabilityProblem(missing, `This saved card is held by a provider that cannot ${CAPABILITY_ASK_TEXT[missing]} (${reason})`)],
      };
    }
    const route = await findSavedCardRoute(db, merchantId, { service, mode }, facts, request.savedCard);
    return route ? { kind: "routed", route } : { kind: "unroutable", service, mode };
  }
  if (pin !== undefined) {
    const pinned = await findPinnedInvoiceRoute(db, merchantId, { service, mode, connectionId: pin });
    if (!pinned.ok) return { kind: "invalid", problems: pinned.problems };
    const missing = missingCapability(pinned.value.provider, facts.asks ?? []);
    if (missing !== undefined) {
      return {
        kind: "invalid",
        problems: [
          capabilityProblem(
            missing,
            `The pinned connection's provider cannot ${CAPABILITY_ASK_TEXT[missing]} (${capabilitySkipReason(pinned.value.provider, missing)})`,
          ),
        ],
      };
    }
    return { kind: "routed", route: pinned.value };
  }
  const route = await findRoute(db, merchantId, { service, mode }, facts);
  if (route) return { kind: "routed", route };
  const missing = await missingAsk(db, merchantId, { service, mode, facts });
  return missing ? { kind: "invalid", problems: [missing] } : { kind: "unroutable", service, mode };
}

const BLOCKED_AT: Record<BlocklistKind, string[]> = {
  email: ["data", "attributes", "customer", "email"],
  country: ["data", "attributes", "customer", "address", "country"],
  card: ["data", "attributes", "fields", "card_number"],
  bin: ["data", "attributes", "fields", "card_number"],
  address: [],
};

/** The merchant's blocklist against what the create knows (lib/risk): a 422 problem naming the rule, or null. */
async function blockedAtCreate(db: Db, merchantId: string, mode: Mode, customer: Record<string, unknown>, card: string | undefined): Promise<Problem | null> {
  const kind = await checkCreate(db, { merchantId, mode }, { ...customerFacts(customer), cardNumber: card ?? null });
  if (!kind) return null;
  const rule = RULE_OF_KIND[kind];
  return problem("blocked_by_risk", `Refused by the risk rule ${rule}: ${describeRiskRule(rule).toLowerCase()}.`, BLOCKED_AT[kind]);
}

/**
 * Creates a payment or payout invoice from a request body (spec 4.1, 4.2; issue "Rules"): checks
 * the commerce account (403 before anything else is looked at), validates every field at once,
 * routes to a connection (the one the request pins, else the first of the routing order), resolves
 * the customer, and inserts exactly once per reference_id. Hot path: one cached routing query and
 * one insert statement; credentials are never decrypted here.
 */
export async function createInvoice(
  db: Db,
  merchant: Pick<Merchant, "id" | "commerceAccount">,
  direction: InvoiceDirection,
  body: unknown,
  options: CreateInvoiceOptions = {},
): Promise<CreateInvoiceResult> {
  const account = sentCommerceAccount(body);
  if (typeof account === "string" && account.trim() !== "" && account !== merchant.commerceAccount) {
    return { kind: "forbidden", commerceAccount: account };
  }
  const validation = validateInvoice(direction, body);
  if (!validation.ok) return { kind: "invalid", problems: validation.problems };
  const envelope = validation.value;
  const { service, test_mode, reference_id: referenceId } = envelope.data.attributes;
  const mode: Mode = test_mode === true ? "test" : "live";
  if (options.keyMode && mode !== options.keyMode) return { kind: "key_mode_mismatch", keyMode: options.keyMode };
  if (options.testOnly && mode !== "test") return { kind: "test_only" };
  // A saved card is charged only through the caller that found it (lib/processing/saved-cards.ts); never routed as a plain payment.
  if (paymentMethodIdOf(envelope) !== undefined && !options.savedCard) {
    return {
      kind: "invalid",
      problems: [problem("payment_method_not_found", "No saved card of yours in this mode has this id.", [...PAYMENT_METHOD_PATH, "data", "id"])],
    };
  }
  const card = cardOf(envelope);
  const data = (body as { data: unknown }).data;
  const hash = hashOf(data, card, options);
  const sent = { hash, card, previousHashes: () => previousHashesOf(data, card, options) };

  const amount = parseAmount(envelope.data.attributes.amount, envelope.data.attributes.currency);
  const sentAttributes = envelope.data.attributes as { flow?: unknown; gateway_options?: unknown };
  const facts: RouteFacts = {
    ...creationFacts({
      amountMinor: amount.ok ? amount.minor : 0n,
      data,
      cardNumber: card,
      direction,
      bypassesHostedPage: (envelope.data.attributes.options as { bypass_hpp?: boolean } | undefined)?.bypass_hpp === true,
    }),
    asks: capabilityAsksOf({ direction, flow: sentAttributes.flow, gatewayOptions: sentAttributes.gateway_options }),
  };
  const routed = await routeOf(db, merchant.id, { service, mode, pin: pinnedConnectionId(envelope), facts, savedCard: options.savedCard });
  if (routed.kind !== "routed") {
    // A retry of an invoice whose connection was disabled since still gets the original back.
    return (await replayOrConflict(db, merchant.id, direction, referenceId, sent, options.keyMode)) ?? routed;
  }
  const route = routed.route;
  const id = newId(direction === "payment" ? "cpi" : "cpoi");
  const prepared = invoiceValues({ id, merchantId: merchant.id, direction, data, envelope, route, hash, requestId: options.requestId });
  if (!prepared.ok) return { kind: "invalid", problems: prepared.problems };
  const blocked = await blockedAtCreate(db, merchant.id, mode, prepared.value.resolvedCustomer, card);
  if (blocked) return (await replayOrConflict(db, merchant.id, direction, referenceId, sent, options.keyMode)) ?? { kind: "invalid", problems: [blocked] };

  const inserted = await insertInvoiceOnce(db, prepared.value, envelope.data.attributes.lifetime);
  if (inserted) {
    const { createdAt, expiresAt } = inserted;
    logger.info("invoice created", { requestId: options.requestId, invoiceId: id, merchantId: merchant.id, connectionId: route.connectionId });
    const invoice: InvoiceRow = {
      returnUrl: null,
      description: null,
      cardBrand: null,
      cardCountry: null,
      paymentMethodId: null,
      ...prepared.value,
      status: INITIAL_STATUS,
      resolution: null,
      processedAmountMinor: null,
      refundedAmountMinor: 0n,
      disputedAmountMinor: 0n,
      authorizedAmountMinor: null,
      captureBefore: null,
      captureAmountMinor: null,
      authorizationRequestKey: null,
      attemptsCount: 0,
      eventSequence: 0,
      createdAt,
      updatedAt: createdAt,
      expiresAt,
    };
    return withCard({ kind: "created" as const, invoice }, card);
  }
  const replay = await replayOrConflict(db, merchant.id, direction, referenceId, sent, options.keyMode);
  // Invoices are never deleted, so the row that blocked the insert is there to read.
  if (!replay) throw new Error(`Invoice ${direction} reference neither inserted nor found`);
  return replay;
}
