import { sql } from "drizzle-orm";
import { bigint, boolean, customType, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import {
  EXPIRABLE_STATUSES,
  OPEN_DISPUTE_STATUSES,
  OPEN_REFUND_STATUSES,
  type DisputeReason,
  type DisputeStatus,
  type AttemptStatus,
  type CallbackOutcome,
  type InvoiceStatus,
  type PayoutPartStatus,
  type RefundStatus,
  type Resolution,
  type RoutingReason,
  type ThreeDsResult,
  type WebhookTargetState,
  type ConnectionHealth,
  type AlertRuleKind,
} from "./enums";

import type { StoredRoutingDetail as RoutingDetail, StoredRoutingRule as RoutingRule } from "./routing-types";

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const merchants = pgTable("merchants", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  commerceAccount: text("commerce_account").notNull().unique(),
  /** Whether a live invoice may name its connection (a pin); test invoices always may. */
  allowLivePins: boolean("allow_live_pins").notNull().default(false),
  /** Default lifetime of a new invoice in seconds (30 minutes unless the merchant changes it). */
  invoiceLifetimeSeconds: integer("invoice_lifetime_seconds").notNull().default(1800),
  /** The merchant's time zone (IANA name, lib/time-zones.ts): the export writes its times in it, with the offset. */
  timeZone: text("time_zone").notNull().default("UTC"),
  /**
   * Legacy: the single callback URL of before webhook endpoints. Migration 0016 copied it into
   * `webhook_endpoints` (one endpoint per merchant); nothing reads it any more. Dropped by a later
   * migration, once that backfill has run everywhere.
   */
  webhookUrl: text("webhook_url"),
  /** "Require two-factor authentication for owners": an owner without it is sent to enrolment first (lib/auth/viewer.ts). */
  requireOwnerMfa: boolean("require_owner_mfa").notNull().default(false),
  /**
   * Success-rate ordering (lib/routing/success.ts): the sliding window in hours, the
   * attempts within it before a connection's rate is trusted, and the share of invoices (whole
   * percent) that explore another connection first.
   */
  successWindowHours: integer("success_window_hours").notNull().default(24),
  successMinSample: integer("success_min_sample").notNull().default(20),
  successExplorationPercent: integer("success_exploration_percent").notNull().default(5),
  createdAt: createdAt(),
});

/** The roles of a team; what each may do is lib/identity/permissions.ts. */
export const ROLES = ["owner", "developer", "finance", "support", "read_only"] as const;
export type Role = (typeof ROLES)[number];

export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    /** Raised by sign-out, password change or reset: a session cookie issued under an older value is refused. */
    sessionVersion: integer("session_version").notNull().default(0),
    /** The TOTP secret (base32) sealed by the vault once two-factor sign-in is on; never shown again. */
    totpSecret: text("totp_secret"),
    /** A secret offered during enrolment, sealed, until a current code confirms it (then it moves to totp_secret). */
    totpPendingSecret: text("totp_pending_secret"),
    totpEnabledAt: timestamp("totp_enabled_at", { withTimezone: true, mode: "date" }),
    /** The last 30-second step a code was accepted for: a code is never accepted twice (replay). */
    totpLastStep: bigint("totp_last_step", { mode: "number" }),
    /** The person's own time zone (IANA name) for the dashboard's dates; null: the merchant's (lib/time-zones.ts `timeZoneInForce`). */
    timeZone: text("time_zone"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_unique").on(sql`lower(${t.email})`), index("users_merchant_idx").on(t.merchantId)],
);

export const apiKeys = pgTable(
  "api_keys",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** SHA-256 of the key: keys carry 256 random bits, so a fast hash is safe and lookups stay O(1). */
    hash: text("hash").notNull().unique(),
    /** The key's visible start, shown with the last four: `pok_test_`, `pok_live_`, or `pok_` (made before modes). */
    prefix: text("prefix").notNull().default("pok_"),
    lastFour: text("last_four").notNull(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    /** The only invoice mode the key creates and reads (prefix pok_test_ / pok_live_). Keys made before modes existed are test keys. */
    mode: text("mode", { enum: ["test", "live"] })
      .notNull()
      .default("test"),
    /** `read_only` keys may only GET (and HEAD); `full` keys may also write. */
    scope: text("scope", { enum: ["full", "read_only"] })
      .notNull()
      .default("full"),
    /** Set when the key is rolled: refused from this moment (the grace the merchant chose). */
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    /** The key that replaced this one when it was rolled. */
    rolledTo: text("rolled_to"),
  },
  (t) => [index("api_keys_merchant_idx").on(t.merchantId)],
);

export const connections = pgTable(
  "connections",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    kind: text("kind").notNull(),
    label: text("label").notNull(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    enabled: boolean("enabled").notNull().default(true),
    currency: text("currency"),
    /** Non-secret credential fields, in clear (ids, URLs, toggles, public keys). */
    publicCredentials: jsonb("public_credentials").$type<Record<string, unknown>>().notNull(),
    /** Secret credential fields as one AES-256-GCM token (lib/vault). */
    secretCredentials: text("secret_credentials").notNull(),
    /** Masked form of each secret ("••••abcd"), so pages never decrypt to show them. */
    secretHints: jsonb("secret_hints").$type<Record<string, string>>().notNull(),
    constants: jsonb("constants").$type<Record<string, string>>().notNull().default({}),
    /** Set while the connection is enabled and its kind allows one per currency and mode (Provider D). */
    exclusiveKey: text("exclusive_key"),
    /** healthy | degraded | failing, from `health_window` (lib/analytics/connection-health.ts), kept as attempts settle. */
    health: text("health").$type<ConnectionHealth>().notNull().default("healthy"),
    /** The last HEALTH_WINDOW counted outcomes, oldest first: `S` success, `F` technical failure (issuer declines are not counted). */
    healthWindow: text("health_window").notNull().default(""),
    healthChangedAt: timestamp("health_changed_at", { withTimezone: true, mode: "date", precision: 3 }),
    /** The connection's dispute rate over its last days is at or above the health rule's limit (lib/analytics/connection-health.ts): degraded at least. */
    disputeRateHigh: boolean("dispute_rate_high").notNull().default(false),
    /** The latest attempt on this connection that did not succeed: when, why, what the provider said. */
    lastErrorAt: timestamp("last_error_at", { withTimezone: true, mode: "date", precision: 3 }),
    lastErrorResolution: text("last_error_resolution").$type<Resolution>(),
    lastErrorMessage: text("last_error_message"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    index("connections_merchant_idx").on(t.merchantId),
    uniqueIndex("connections_label_unique")
      .on(t.merchantId, sql`lower(${t.label})`)
      .where(sql`${t.deletedAt} is null`),
    uniqueIndex("connections_exclusive_unique")
      .on(t.merchantId, t.exclusiveKey)
      .where(sql`${t.deletedAt} is null and ${t.exclusiveKey} is not null`),
  ],
);

/** One-time recovery codes for two-factor sign-in, stored as SHA-256 (each code carries 50 random bits). */
export const mfaRecoveryCodes = pgTable(
  "mfa_recovery_codes",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [index("mfa_recovery_codes_user_idx").on(t.userId)],
);

export const AUDIT_ACTOR_TYPES = ["user", "api_key", "system"] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

/**
 * The merchant's audit log (lib/audit): who did what, when, to what. Names of changed fields and a
 * short summary only, never a secret, credential, key or card number. The actor's name and e-mail
 * (or the API key's name) are copied as they were at the time.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    actorType: text("actor_type", { enum: AUDIT_ACTOR_TYPES }).notNull(),
    /** The user's or API key's id; null for the system. */
    actorId: text("actor_id"),
    actorLabel: text("actor_label").notNull(),
    /** `<family>.<verb>`: connection.created, routing.saved, api_key.revoked, mfa.enabled… (lib/audit/actions.ts). */
    action: text("action").notNull(),
    targetType: text("target_type"),
    targetId: text("target_id"),
    summary: text("summary").notNull().default(""),
    /** Names of what changed; never secret values. */
    changes: jsonb("changes").$type<string[]>().notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_log_merchant_idx").on(t.merchantId, t.createdAt, t.id),
    index("audit_log_target_idx").on(t.merchantId, t.targetType, t.targetId, t.createdAt),
  ],
);

/** Key pairs generated in the dashboard (Provider E) until a connection takes the private key. */
export const generatedKeys = pgTable("generated_keys", {
  id: text("id").primaryKey(),
  merchantId: text("merchant_id")
    .notNull()
    .references(() => merchants.id, { onDelete: "cascade" }),
  privateKey: text("private_key").notNull(),
  publicKey: text("public_key").notNull(),
  createdAt: createdAt(),
  consumedAt: timestamp("consumed_at", { withTimezone: true, mode: "date" }),
});

/**
 * The merchant's routing order for one service in one mode: where new invoices go (the first
 * enabled connection listed) and the cascade order (the rest). One row per list, saved whole, so a
 * save replaces the order atomically. The ids are not foreign keys: routing joins them against the
 * live connections, skipping disabled and deleted ones, and connections not listed follow the
 * listed ones oldest first (lib/routing/order.ts).
 */
export const routingOrders = pgTable(
  "routing_orders",
  {
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    service: text("service").notNull(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    /** The default rule: the routing order (today's list), used when no rule before it applies. */
    connectionIds: text("connection_ids").array().notNull(),
    /** The rules before the default, first to last (lib/routing/rules.ts); [] routes by the order alone. */
    rules: jsonb("rules").$type<RoutingRule[]>().notNull().default([]),
    /** Saves so far; each one is kept in routing_versions under this number. */
    version: integer("version").notNull().default(0),
    /** Who saved it last, as the audit trail names people and API keys. */
    updatedBy: text("updated_by"),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: "routing_orders_pk", columns: [t.merchantId, t.service, t.mode] })],
);

/**
 * Per connection and service, how its attempts went in 5-minute buckets (success-rate
 * ordering; lib/routing/success.ts): `attempts` counts outcomes that say something about the
 * provider (a success, an unknown outcome, a technical failure), `successes` the successes; card
 * and customer declines count in neither (the health rule's, lib/analytics/connection-health.ts). Written in
 * the transaction that settles the attempt; routing sums the buckets of the window.
 */
export const routingStats = pgTable(
  "routing_stats",
  {
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    service: text("service").notNull(),
    connectionId: text("connection_id")
      .notNull()
      .references(() => connections.id, { onDelete: "cascade" }),
    /** Start of the bucket (UTC, a multiple of 5 minutes). */
    bucket: timestamp("bucket", { withTimezone: true, mode: "date" }).notNull(),
    attempts: integer("attempts").notNull(),
    successes: integer("successes").notNull(),
  },
  (t) => [primaryKey({ name: "routing_stats_pk", columns: [t.merchantId, t.service, t.bucket, t.connectionId] })],
);

/**
 * Every save of a service's routing in one mode (routing versions): the rules and the default
 * order as saved, who saved it and when. A rollback saves an old version again as a new one.
 */
export const routingVersions = pgTable(
  "routing_versions",
  {
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    service: text("service").notNull(),
    mode: text("mode", { enum: ["test", "live"] }).notNull(),
    version: integer("version").notNull(),
    connectionIds: text("connection_ids").array().notNull(),
    rules: jsonb("rules").$type<RoutingRule[]>().notNull(),
    savedBy: text("saved_by"),
    savedAt: timestamp("saved_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /** Set when this version is a rollback: the version whose rules and order it restored. */
    restoredFrom: integer("restored_from"),
  },
  (t) => [primaryKey({ name: "routing_versions_pk", columns: [t.merchantId, t.service, t.mode, t.version] })],
);

/** Millisecond precision, so a JS Date read back equals the stored value (list cursors rely on it). */
const invoiceTime = (name: string) => timestamp(name, { withTimezone: true, mode: "date", precision: 3 }).notNull().defaultNow();

/**
 * Where each value of an invoice's resolved customer came from, keyed by spec path
 * ("customer.address.city", "language"), as resolveCustomer decided it at creation. No values:
 * those are in resolved_customer. `constant` names the connection constant that supplied one.
 */
export type CustomerSources = Record<string, { source: "request" | "constant" | "default"; constant?: string }>;

/**
 * Payment and payout invoices (spec 2, 4.1, 4.2). `amount` is the decimal text as sent, for echoing;
 * `amount_minor` the exact value in minor units, for sums. A payout card is kept masked only.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    direction: text("direction", { enum: ["payment", "payout"] }).notNull(),
    referenceId: text("reference_id").notNull(),
    /** SHA-256 of the request's canonical `data`: a retry with the same reference must match it. */
    requestHash: text("request_hash").notNull(),
    connectionId: text("connection_id").references(() => connections.id),
    /** Why it went to that connection; null only while connection_id is. */
    routingReason: text("routing_reason").$type<RoutingReason>(),
    /** How routing decided (rule, split branch, order, what it skipped, the sentence); null for invoices created before routing rules. */
    routingDetail: jsonb("routing_detail").$type<RoutingDetail>(),
    /** What the provider actually collected or paid out (REFERENCE "Resources"); null until it says. */
    processedAmountMinor: bigint("processed_amount_minor", { mode: "bigint" }),
    /** What its refunds have given back (succeeded ones), kept with each refund's outcome (lib/refunds). */
    refundedAmountMinor: bigint("refunded_amount_minor", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
    /** What its open and lost disputes hold back (lib/disputes): kept with each dispute's change; a won dispute gives it back. */
    disputedAmountMinor: bigint("disputed_amount_minor", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
    /** Provider attempts made so far (bounded by the attempts limit). */
    attemptsCount: integer("attempts_count").notNull().default(0),
    /**
     * The `sequence` of the invoice's latest webhook event (0 before the first): raised by one in the
     * transaction that writes each event, so the events of an invoice are numbered 1, 2, 3 … without
     * gaps, in the order their transactions committed (the update holds the row until then).
     */
    eventSequence: integer("event_sequence").notNull().default(0),
    /** What the payment is for, shown to the customer (optional `description` attribute of a payment). */
    description: text("description"),
    /** Where the hosted page sends the customer back to (optional `return_url` attribute). */
    returnUrl: text("return_url"),
    status: text("status").$type<InvoiceStatus>().notNull(),
    resolution: text("resolution").$type<Resolution>(),
    service: text("service").notNull(),
    currency: text("currency").notNull(),
    amount: text("amount").notNull(),
    /** The client sent `amount` as a JSON number (echoed as one) rather than a string. */
    amountIsNumber: boolean("amount_is_number").notNull(),
    amountMinor: bigint("amount_minor", { mode: "bigint" }).notNull(),
    testMode: boolean("test_mode").notNull(),
    flow: text("flow"),
    options: jsonb("options").$type<Record<string, unknown>>().notNull().default({}),
    customer: jsonb("customer").$type<Record<string, unknown>>(),
    resolvedCustomer: jsonb("resolved_customer").$type<Record<string, unknown>>().notNull().default({}),
    /** Null for invoices created before sources were recorded (migration 0002). */
    resolvedCustomerSources: jsonb("resolved_customer_sources").$type<CustomerSources>(),
    gatewayOptions: jsonb("gateway_options").$type<Record<string, unknown>>(),
    serviceFields: jsonb("service_fields").$type<unknown[]>(),
    /** First six and last four digits at most; the full number is never stored. */
    cardNumberMasked: text("card_number_masked"),
    /**
     * The card's last four digits, for search: a payout's from its destination card at creation,
     * a payment's from the card the hosted page paid with (set when the payment request takes it).
     */
    cardLastFour: text("card_last_four"),
    /**
     * The paying card's network and issuing country (ISO 3166-1 alpha-2), read from its first digits
     * when the payment request takes it (lib/cards/bin.ts), before the number is dropped; null
     * when unknown or not paid by card here.
     */
    cardBrand: text("card_brand"),
    cardCountry: text("card_country"),
    requestId: text("request_id"),
    /** Authorize now, capture later: what the provider reserved at Pay; null for charges. */
    authorizedAmountMinor: bigint("authorized_amount_minor", { mode: "bigint" }),
    /** When the authorization lapses: the provider's own limit (its folder's `authorizationHoldHours`) or what it said, whichever is sooner. */
    captureBefore: timestamp("capture_before", { withTimezone: true, mode: "date", precision: 3 }),
    /** The capture asked for (one only): its amount, kept while it is in flight so a status request can settle it. */
    captureAmountMinor: bigint("capture_amount_minor", { mode: "bigint" }),
    /** The Idempotency-Key of the capture or void that took the authorization: the same key again answers as the first did. */
    authorizationRequestKey: text("authorization_request_key"),
    /**
     * The saved card (payment_methods) this invoice charged, set at creation, or the one its payment
     * saved, set when the payment method is stored; null otherwise.
     */
    paymentMethodId: text("payment_method_id"),
    /** When an unpaid invoice expires: created_at + its lifetime (attribute `lifetime`, else the merchant's setting). */
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date", precision: 3 })
      .notNull()
      .default(sql`now() + interval '30 minutes'`),
    createdAt: invoiceTime("created_at"),
    updatedAt: invoiceTime("updated_at"),
  },
  (t) => [
    uniqueIndex("invoices_reference_unique").on(t.merchantId, t.direction, t.referenceId),
    /**
     * Every list (API and dashboard, lib/invoices/read/list-invoices.ts): one index scan per
     * direction and mode, already newest first, so a page reads pageSize + 1 rows at any size.
     * NULLS FIRST as `ORDER BY … DESC` implies: with NULLS LAST the planner cannot take the
     * index's order for the query's and sorts every row instead (the columns being NOT NULL does not change that).
     */
    index("invoices_list_idx").on(t.merchantId, t.direction, t.testMode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    /**
     * Lists filtered by status (the API's filter[status], the dashboard's status filter): the same
     * branches, each reading only that status. Without it a status that is rare or absent walks
     * every invoice of the branch (3.4 s at a million invoices on PostgreSQL for one matching none).
     */
    index("invoices_list_status_idx").on(t.merchantId, t.direction, t.testMode, t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    /**
     * The expiry sweep (lib/processing/tasks/invoice-expire.ts): only invoices that may still expire,
     * by expires_at, so finding the overdue ones reads those rows alone at any table size, and a
     * settled invoice leaves the index.
     */
    /**
     * Search (lib/invoices/read/search.ts): each kind of key is one index probe within the merchant
     * and mode, already newest first where a key can match many invoices (e-mail, last four), so a
     * page of results stops after pageSize + 1 rows. The expressions must match the queries'.
     */
    index("invoices_search_email_idx")
      .on(t.merchantId, t.testMode, sql`lower(btrim(${t.resolvedCustomer} ->> 'email'))`, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`(${t.resolvedCustomer} ->> 'email') is not null`),
    /** Name prefixes: text_pattern_ops so `LIKE 'ada%'` is a range under any collation. */
    index("invoices_search_name_idx")
      .on(t.merchantId, t.testMode, sql`lower(btrim(${t.resolvedCustomer} ->> 'name')) text_pattern_ops`)
      .where(sql`(${t.resolvedCustomer} ->> 'name') is not null`),
    /** Reference prefixes, case ignored: text_pattern_ops, as names. */
    index("invoices_search_reference_idx").on(t.merchantId, t.testMode, sql`lower(${t.referenceId}) text_pattern_ops`),
    index("invoices_search_last_four_idx")
      .on(t.merchantId, t.testMode, t.cardLastFour, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`${t.cardLastFour} is not null`),
    index("invoices_expiry_idx")
      .on(t.expiresAt)
      .where(sql.raw(`status in (${EXPIRABLE_STATUSES.map((status) => `'${status}'`).join(", ")})`)),
    /** The authorization sweep's walk: authorizations by when they lapse. */
    index("invoices_capture_before_idx")
      .on(t.captureBefore)
      .where(sql`status = 'authorized'`),
  ],
);

/** Every status change of an invoice, written only by lib/invoices/status.ts (creation included). */
export const invoiceStatusHistory = pgTable(
  "invoice_status_history",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    fromStatus: text("from_status").$type<InvoiceStatus>(),
    toStatus: text("to_status").$type<InvoiceStatus>().notNull(),
    resolution: text("resolution").$type<Resolution>(),
    reason: text("reason").notNull(),
    requestId: text("request_id"),
    at: timestamp("at", { withTimezone: true, mode: "date", precision: 3 }).notNull().defaultNow(),
  },
  (t) => [index("invoice_status_history_invoice_idx").on(t.invoiceId, t.id)],
);

/**
 * One try of an invoice against one connection (REFERENCE "Layers"). `exchanges` is the redacted
 * request/answer log of the provider calls; `idempotency_key` goes to the provider so one attempt
 * can never charge or pay out twice.
 */
export const invoiceAttempts = pgTable(
  "invoice_attempts",
  {
    id: text("id").primaryKey(),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    connectionId: text("connection_id")
      .notNull()
      .references(() => connections.id),
    reason: text("reason").$type<RoutingReason>().notNull(),
    status: text("status").$type<AttemptStatus>().notNull(),
    resolution: text("resolution").$type<Resolution>(),
    providerReference: text("provider_reference"),
    idempotencyKey: text("idempotency_key").notNull(),
    processedAmountMinor: bigint("processed_amount_minor", { mode: "bigint" }),
    feeMinor: bigint("fee_minor", { mode: "bigint" }),
    /** A page the customer must visit (3-D Secure) while the attempt is pending. */
    redirectUrl: text("redirect_url"),
    /** Its 3-D Secure step (lib/invoices/three-ds.ts); null when the provider asked for none. */
    threeDs: text("three_ds").$type<ThreeDsResult>(),
    message: text("message"),
    exchanges: jsonb("exchanges").$type<unknown[]>().notNull().default([]),
    /** Milliseconds the attempt's own provider calls took (sum of its first request's exchanges); null when nothing was sent. */
    latencyMs: integer("latency_ms"),
    startedAt: invoiceTime("started_at"),
    finishedAt: timestamp("finished_at", { withTimezone: true, mode: "date", precision: 3 }),
  },
  (t) => [
    uniqueIndex("invoice_attempts_seq_unique").on(t.invoiceId, t.seq),
    uniqueIndex("invoice_attempts_idempotency_unique").on(t.idempotencyKey),
    /** Search by the provider's payment id (lib/invoices/read/search.ts). */
    index("invoice_attempts_provider_reference_idx")
      .on(t.providerReference)
      .where(sql`${t.providerReference} is not null`),
  ],
);

/** A payout paid in parts (`split_mode`): each part has its own amount and status (REFERENCE `po_`). */
export const payoutParts = pgTable(
  "payout_parts",
  {
    id: text("id").primaryKey(),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    attemptId: text("attempt_id")
      .notNull()
      .references(() => invoiceAttempts.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    amountMinor: bigint("amount_minor", { mode: "bigint" }).notNull(),
    status: text("status").$type<PayoutPartStatus>().notNull(),
    providerReference: text("provider_reference"),
    createdAt: invoiceTime("created_at"),
    updatedAt: invoiceTime("updated_at"),
  },
  (t) => [uniqueIndex("payout_parts_seq_unique").on(t.attemptId, t.seq)],
);

/**
 * Money sent back to the customer of a processed payment (REFERENCE "Statuses": a refund is its own
 * resource). It goes to the connection that took the payment, never cascades, and its id is the
 * provider's idempotency key, so a resend can never refund twice. `status`: `created` (stored, not
 * yet answered), `pending` (the provider took it and will settle it; also an unknown outcome, which
 * only a status request or a callback settles), `succeeded`, `failed`.
 */
export const refunds = pgTable(
  "refunds",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    /** The connection that took the payment (the successful attempt's). */
    connectionId: text("connection_id")
      .notNull()
      .references(() => connections.id),
    /** The merchant's own key for idempotent retries: unique per merchant and mode (test and live keys never see each other's). */
    referenceId: text("reference_id").notNull(),
    requestHash: text("request_hash").notNull(),
    amount: text("amount").notNull(),
    amountMinor: bigint("amount_minor", { mode: "bigint" }).notNull(),
    currency: text("currency").notNull(),
    reason: text("reason"),
    testMode: boolean("test_mode").notNull(),
    status: text("status").$type<RefundStatus>().notNull(),
    resolution: text("resolution").$type<Resolution>(),
    /** True while the provider's answer is not known (timeout after sending): status requests settle it. */
    outcomeUnknown: boolean("outcome_unknown").notNull().default(false),
    providerReference: text("provider_reference"),
    message: text("message"),
    exchanges: jsonb("exchanges").$type<unknown[]>().notNull().default([]),
    createdBy: text("created_by"),
    requestId: text("request_id"),
    createdAt: invoiceTime("created_at"),
    updatedAt: invoiceTime("updated_at"),
    settledAt: timestamp("settled_at", { withTimezone: true, mode: "date", precision: 3 }),
  },
  (t) => [
    uniqueIndex("refunds_reference_unique").on(t.merchantId, t.testMode, t.referenceId),
    index("refunds_invoice_idx").on(t.invoiceId, t.createdAt),
    /** Refunds still waiting on the provider, for the follow-up sweep. */
    index("refunds_open_idx")
      .on(t.updatedAt)
      .where(sql.raw(`status in (${OPEN_REFUND_STATUSES.map((status) => `'${status}'`).join(", ")})`)),
  ],
);

/** Raw bytes (PGlite hands back a Uint8Array, postgres.js a Buffer: both are read as a Buffer). */
const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => Buffer.from(value),
});

/**
 * The merchant's evidence for a dispute, a draft until submitted (lib/disputes/contract.ts
 * `disputeEvidenceSchema`): text fields and the ids of uploaded files.
 */
export type StoredDisputeEvidence = {
  product_description?: string;
  customer_communication?: string;
  shipping_tracking?: string;
  refund_policy?: string;
  explanation?: string;
  file_ids?: string[];
};

/**
 * A customer's dispute (chargeback) of a payment, as its provider notified it (lib/disputes):
 * one row per dispute at the provider (`provider_reference` per connection), however often it is
 * notified or asked about. `amount_minor` is what the dispute holds back; `evidence` the merchant's
 * draft, then what Submit sent (`submitted_at`).
 */
export const disputes = pgTable(
  "disputes",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    /** The connection that took the payment, which notified the dispute. */
    connectionId: text("connection_id")
      .notNull()
      .references(() => connections.id),
    testMode: boolean("test_mode").notNull(),
    /** The provider's own id of the dispute. */
    providerReference: text("provider_reference").notNull(),
    amount: text("amount").notNull(),
    amountMinor: bigint("amount_minor", { mode: "bigint" }).notNull(),
    currency: text("currency").notNull(),
    reason: text("reason").$type<DisputeReason>().notNull(),
    /** The provider's own code or words for the reason, as sent. */
    providerReason: text("provider_reason").notNull().default(""),
    status: text("status").$type<DisputeStatus>().notNull(),
    /** Until when the provider takes evidence. */
    evidenceDueBy: timestamp("evidence_due_by", { withTimezone: true, mode: "date", precision: 3 }).notNull(),
    evidence: jsonb("evidence").$type<StoredDisputeEvidence>().notNull().default({}),
    evidenceUpdatedAt: timestamp("evidence_updated_at", { withTimezone: true, mode: "date", precision: 3 }),
    /** When Submit (or Accept) sent it to the provider, and who: each is sent once. */
    submittedAt: timestamp("submitted_at", { withTimezone: true, mode: "date", precision: 3 }),
    submittedBy: text("submitted_by"),
    acceptedAt: timestamp("accepted_at", { withTimezone: true, mode: "date", precision: 3 }),
    acceptedBy: text("accepted_by"),
    /** When the owners were reminded that the deadline nears (once). */
    reminderSentAt: timestamp("reminder_sent_at", { withTimezone: true, mode: "date", precision: 3 }),
    closedAt: timestamp("closed_at", { withTimezone: true, mode: "date", precision: 3 }),
    createdAt: invoiceTime("created_at"),
    updatedAt: invoiceTime("updated_at"),
  },
  (t) => [
    uniqueIndex("disputes_provider_unique").on(t.connectionId, t.providerReference),
    /** The list, newest first, within the merchant and mode (keyset pages). */
    index("disputes_list_idx").on(t.merchantId, t.testMode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("disputes_invoice_idx").on(t.invoiceId, t.createdAt),
    /** Open disputes by deadline: the inbox, the navigation's count, the reminders and the follow-up sweep. */
    index("disputes_open_idx")
      .on(t.merchantId, t.testMode, t.evidenceDueBy)
      .where(sql.raw(`status in (${OPEN_DISPUTE_STATUSES.map((status) => `'${status}'`).join(", ")})`)),
    index("disputes_open_due_idx")
      .on(t.evidenceDueBy)
      .where(sql.raw(`status in (${OPEN_DISPUTE_STATUSES.map((status) => `'${status}'`).join(", ")})`)),
  ],
);

/**
 * Files a merchant uploaded (`POST /api/commerce/files`): dispute evidence. Kept in the database
 * with their SHA-256; the type is the one their bytes were checked to be (PDF, PNG or JPEG).
 */
export const merchantFiles = pgTable(
  "merchant_files",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    testMode: boolean("test_mode").notNull(),
    purpose: text("purpose").notNull(),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    data: bytea("data").notNull(),
    createdBy: text("created_by"),
    createdAt: invoiceTime("created_at"),
  },
  (t) => [index("merchant_files_merchant_idx").on(t.merchantId, t.createdAt)],
);

/**
 * The sandboxes' own memory (lib/sandbox): what each simulated provider received and decided,
 * keyed by its own reference. Not the service's data: the service knows only what the API answered.
 */
export const sandboxRecords = pgTable(
  "sandbox_records",
  {
    id: text("id").primaryKey(),
    provider: text("provider").notNull(),
    /** The test-mode connection whose credentials the request carried (the sandbox's "account"). */
    connectionId: text("connection_id"),
    operation: text("operation").notNull(),
    reference: text("reference").notNull(),
    idempotencyKey: text("idempotency_key"),
    amountMinor: bigint("amount_minor", { mode: "bigint" }),
    currency: text("currency"),
    status: text("status").notNull(),
    details: jsonb("details").$type<Record<string, unknown>>().notNull().default({}),
    request: jsonb("request"),
    response: jsonb("response"),
    createdAt: invoiceTime("created_at"),
    updatedAt: invoiceTime("updated_at"),
  },
  (t) => [
    uniqueIndex("sandbox_records_reference_unique").on(t.provider, t.reference),
    // An idempotency key is the account's own: another account repeating it makes its own record.
    uniqueIndex("sandbox_records_idempotency_unique").on(t.provider, t.connectionId, t.idempotencyKey),
    index("sandbox_records_connection_idx").on(t.connectionId, t.createdAt),
  ],
);

/**
 * What providers sent to /api/callbacks/<slug>/<connection id>, accepted or not. Bodies
 * are stored redacted and cut at 8 KiB; `outcome` says what the service did with it.
 */
export const providerCallbacks = pgTable(
  "provider_callbacks",
  {
    id: text("id").primaryKey(),
    provider: text("provider").notNull(),
    /** As the path named it; not a foreign key, so a callback naming no real connection is kept too. */
    connectionId: text("connection_id").notNull(),
    merchantId: text("merchant_id"),
    invoiceId: text("invoice_id"),
    attemptId: text("attempt_id"),
    /** The provider's own id of this notification: a second one with the same id is a replay. */
    notificationId: text("notification_id"),
    outcome: text("outcome").$type<CallbackOutcome>().notNull(),
    reason: text("reason"),
    /** What the callback said, mapped: the attempt status it reports. */
    reported: jsonb("reported").$type<Record<string, unknown>>(),
    headers: jsonb("headers").$type<Record<string, string>>().notNull().default({}),
    body: text("body").notNull().default(""),
    receivedAt: invoiceTime("received_at"),
  },
  (t) => [
    uniqueIndex("provider_callbacks_notification_unique")
      .on(t.connectionId, t.notificationId)
      .where(sql`${t.outcome} <> 'rejected'`),
    index("provider_callbacks_invoice_idx").on(t.invoiceId, t.receivedAt),
  ],
);

/**
 * A merchant's webhook endpoints: where events are POSTed, which types (`eventTypes` null: all
 * of them), whether it receives at all. Each has its own signing secrets (webhook_secrets).
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    enabled: boolean("enabled").notNull().default(true),
    /** The event types it is sent; null for every type (including types added later). */
    eventTypes: jsonb("event_types").$type<string[] | null>(),
    createdAt: invoiceTime("created_at"),
    updatedAt: invoiceTime("updated_at"),
  },
  (t) => [index("webhook_endpoints_merchant_idx").on(t.merchantId, t.createdAt)],
);

/**
 * An endpoint's signing secrets, sealed by the vault. The current one has no `retires_at`; a
 * rotated one keeps signing until `retires_at` (24 hours after the rotation).
 */
export const webhookSecrets = pgTable(
  "webhook_secrets",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    /** Set for every secret (migration 0016 gave the old per-merchant secrets to the merchant's endpoint). */
    endpointId: text("endpoint_id").references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    sealed: text("sealed").notNull(),
    createdAt: invoiceTime("created_at"),
    retiresAt: timestamp("retires_at", { withTimezone: true, mode: "date", precision: 3 }),
  },
  (t) => [index("webhook_secrets_merchant_idx").on(t.merchantId, t.createdAt), index("webhook_secrets_endpoint_idx").on(t.endpointId, t.createdAt)],
);

/**
 * Events for the merchant (`invoice.status_changed`, `refund.*`, `payout.canceled`, and
 * `webhook.test` from the Webhooks page), written in the same transaction as the change (an
 * outbox), so none is lost. `invoice` is the invoice row at that moment; the delivered body is
 * rendered from it. Where each event goes, and how that went, is in webhook_event_targets.
 */
export const webhookEvents = pgTable(
  "webhook_events",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    invoiceId: text("invoice_id"),
    type: text("type").notNull(),
    /** 1, 2, 3 … per invoice (invoices.event_sequence); null for test events, which are about no invoice. */
    sequence: integer("sequence"),
    invoice: jsonb("invoice").$type<Record<string, unknown>>(),
    /** refund.* events: the refund as it was when the event happened (the invoice beside it). */
    refund: jsonb("refund").$type<Record<string, unknown>>(),
    /** connection.* events: the connection (no credentials) as it was when the event happened; invoice is null then. */
    connection: jsonb("connection").$type<Record<string, unknown>>(),
    /** payment_method.* events, and an invoice.status_changed whose payment saved a card: the payment method (never its token) as it was. */
    paymentMethod: jsonb("payment_method").$type<Record<string, unknown>>(),
    /** dispute.* events: the dispute as it was when the event happened (the invoice beside it). */
    dispute: jsonb("dispute").$type<Record<string, unknown>>(),
    /** alert.* events: the alert as it was when it fired or resolved (lib/alerts); invoice is null then. */
    alert: jsonb("alert").$type<Record<string, unknown>>(),
    /** risk.blocked events: the rule that refused the attempt (lib/risk), the invoice beside it. */
    risk: jsonb("risk").$type<Record<string, unknown>>(),
    createdAt: invoiceTime("created_at"),
    updatedAt: invoiceTime("updated_at"),
  },
  (t) => [
    index("webhook_events_invoice_idx").on(t.invoiceId, t.createdAt),
    index("webhook_events_merchant_idx").on(t.merchantId, t.createdAt, t.id),
    uniqueIndex("webhook_events_invoice_sequence_unique")
      .on(t.invoiceId, t.sequence)
      .where(sql`${t.sequence} is not null`),
  ],
);

/**
 * One event's delivery to one endpoint: its own state, tries and next try (retry schedule of
 * lib/retry-schedules.ts), so a failing endpoint never holds another back. Made with the event,
 * for the enabled endpoints subscribed to its type at that moment.
 */
export const webhookEventTargets = pgTable(
  "webhook_event_targets",
  {
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    endpointId: text("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    state: text("state").$type<WebhookTargetState>().notNull().default("pending"),
    tries: integer("tries").notNull().default(0),
    nextTryAt: timestamp("next_try_at", { withTimezone: true, mode: "date", precision: 3 }),
    createdAt: invoiceTime("created_at"),
    updatedAt: invoiceTime("updated_at"),
  },
  (t) => [
    primaryKey({ columns: [t.eventId, t.endpointId] }),
    index("webhook_event_targets_due_idx").on(t.state, t.nextTryAt),
    index("webhook_event_targets_endpoint_idx").on(t.endpointId, t.eventId),
  ],
);

/** Each try of a delivery: to which endpoint and URL, when, the answer's status, duration and first 1 KiB. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text("id").primaryKey(),
    eventId: text("event_id")
      .notNull()
      .references(() => webhookEvents.id, { onDelete: "cascade" }),
    /** The endpoint tried (null once it is deleted; `url` still says where the try went). */
    endpointId: text("endpoint_id").references(() => webhookEndpoints.id, { onDelete: "set null" }),
    trigger: text("trigger").$type<"automatic" | "resend" | "test">().notNull(),
    url: text("url").notNull(),
    statusCode: integer("status_code"),
    durationMs: integer("duration_ms").notNull(),
    responseExcerpt: text("response_excerpt"),
    error: text("error"),
    succeeded: boolean("succeeded").notNull(),
    at: invoiceTime("at"),
  },
  (t) => [
    index("webhook_deliveries_event_idx").on(t.eventId, t.at),
    /** An endpoint's latest tries, newest first: the alert on failures in a row (lib/alerts). */
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.at.desc()),
  ],
);

/**
 * Mail kept on the server when no SMTP_URL is configured: the embedded default has no
 * mail server, so messages wait here for the operator's outbox page instead of being lost.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: text("id").primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    createdAt: createdAt(),
  },
  (t) => [index("mail_outbox_created_idx").on(t.createdAt)],
);

/** A forgotten-password link: only the SHA-256 of its token is stored; single use, 30 minutes. */
export const passwordResets = pgTable(
  "password_resets",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [index("password_resets_user_idx").on(t.userId)],
);

/** A member invited by e-mail sets their own password through the link (token stored as SHA-256). */
export const invites = pgTable(
  "invites",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    name: text("name").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (t) => [index("invites_merchant_idx").on(t.merchantId)],
);

/**
 * Rate-limit counters shared by the processes on one PostgreSQL (lib/rate-limit/store.ts): a token
 * bucket (tokens left, last refill) or a fixed window (count, start), keyed by a SHA-256. Created
 * UNLOGGED by its migration: no WAL per request, and a crash only resets the counters.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    tokens: doublePrecision("tokens").notNull(),
    /** Milliseconds since the epoch on the database's clock. */
    stampMs: doublePrecision("stamp_ms").notNull(),
    /** Whether the last take was granted (token buckets). */
    granted: boolean("granted").notNull().default(true),
    /** Token buckets leased in batches (the API's limits): how many tokens the last take granted, 0 when refused. */
    taken: doublePrecision("taken").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date", precision: 3 }).notNull(),
  },
  (t) => [index("rate_limits_expires_idx").on(t.expiresAt)],
);

/**
 * The overview's rollups (lib/analytics/rollups.ts): per merchant, mode, UTC hour (and UTC day), source
 * (`invoice`: invoices that reached a provider, by outcome; `attempt`: settled attempts per
 * connection; `refund`: succeeded refunds), direction, connection, status, resolution and currency,
 * the count and exact sums in minor units, the recovered-by-cascading count and amount, and a
 * latency histogram (LATENCY_BUCKETS_MS, counts per bucket). Kept by the same transactions that
 * change the rows they sum, and rebuilt from them by `npm run admin -- rebuild-rollups`. Empty
 * strings stand for "none" in key columns (a primary key cannot hold null).
 */
export const overviewRollups = pgTable(
  "overview_rollups",
  {
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    testMode: boolean("test_mode").notNull(),
    /** `hour` rows and `day` rows (the same sums per UTC day: long periods read 24 times fewer rows). */
    grain: text("grain").$type<"hour" | "day">().notNull(),
    /** Start of the UTC hour, or of the UTC day for `day` rows. */
    hour: timestamp("hour", { withTimezone: true, mode: "date" }).notNull(),
    source: text("source").$type<"invoice" | "attempt" | "refund" | "dispute">().notNull(),
    direction: text("direction", { enum: ["payment", "payout"] }).notNull(),
    connectionId: text("connection_id").notNull(),
    status: text("status").notNull(),
    resolution: text("resolution").notNull(),
    currency: text("currency").notNull(),
    count: bigint("count", { mode: "number" }).notNull(),
    amountMinor: bigint("amount_minor", { mode: "bigint" }).notNull(),
    recoveredCount: bigint("recovered_count", { mode: "number" }).notNull(),
    recoveredAmountMinor: bigint("recovered_amount_minor", { mode: "bigint" }).notNull(),
    latency: integer("latency").array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.merchantId, t.testMode, t.grain, t.hour, t.source, t.direction, t.connectionId, t.status, t.resolution, t.currency] })],
);

/**
 * Saved cards: a card a provider keeps behind its token, saved when a payment with
 * `gateway_options.cardgate.tokenize` and a customer reference succeeded. The token is sealed by the
 * vault (like credentials) and never leaves the server; the number and CVC are never stored. The
 * connection that holds the token stays named after it is deleted (the method is then unusable).
 */
export const paymentMethods = pgTable(
  "payment_methods",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    testMode: boolean("test_mode").notNull(),
    customerReference: text("customer_reference").notNull(),
    brand: text("brand"),
    lastFour: text("last_four").notNull(),
    expiryMonth: integer("expiry_month").notNull(),
    expiryYear: integer("expiry_year").notNull(),
    provider: text("provider").notNull(),
    connectionId: text("connection_id")
      .notNull()
      .references(() => connections.id),
    /** The provider's token, one AES-256-GCM token of lib/vault. */
    tokenSealed: text("token_sealed").notNull(),
    /** The invoice whose payment saved it: one payment method per invoice at most. */
    sourceInvoiceId: text("source_invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    /** Set when detached (DELETE): never charged again. */
    detachedAt: timestamp("detached_at", { withTimezone: true, mode: "date", precision: 3 }),
    createdAt: invoiceTime("created_at"),
    updatedAt: invoiceTime("updated_at"),
  },
  (t) => [
    uniqueIndex("payment_methods_source_invoice_unique").on(t.sourceInvoiceId),
    /** The list, newest first, within merchant and mode (filter[customer_reference] one more column). */
    index("payment_methods_list_idx").on(t.merchantId, t.testMode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("payment_methods_customer_idx").on(t.merchantId, t.testMode, t.customerReference, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    index("payment_methods_connection_idx").on(t.connectionId),
  ],
);

/**
 * A merchant's alert rules as its owners changed them (lib/alerts/rules.ts): a rule without a row
 * runs with its defaults. `threshold` and `window_minutes` mean what the rule says (a percentage,
 * a count, days); null where the rule has none.
 */
export const alertRules = pgTable(
  "alert_rules",
  {
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    rule: text("rule").$type<AlertRuleKind>().notNull(),
    enabled: boolean("enabled").notNull(),
    threshold: integer("threshold"),
    windowMinutes: integer("window_minutes"),
    updatedAt: invoiceTime("updated_at"),
  },
  (t) => [primaryKey({ name: "alert_rules_pk", columns: [t.merchantId, t.rule] })],
);

/**
 * Alerts: one row per firing, open until its condition clears (`resolved_at`). At most one open
 * alert per merchant, rule and subject (the partial unique index): the evaluation inserts with
 * ON CONFLICT DO NOTHING and resolves with a compare-and-set, so whatever the number of
 * instances evaluating at once, an alert fires and resolves once.
 */
export const alerts = pgTable(
  "alerts",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    rule: text("rule").$type<AlertRuleKind>().notNull(),
    /** What the alert is about: a connection, mode and service, endpoint, dispute or API key id. */
    subject: text("subject").notNull(),
    /** The subject's mode, where it has one (webhook endpoints have none). */
    mode: text("mode", { enum: ["test", "live"] }),
    title: text("title").notNull(),
    detail: text("detail").notNull(),
    /** Where the dashboard shows the subject (a path), if anywhere. */
    link: text("link"),
    openedAt: invoiceTime("opened_at"),
    resolvedAt: timestamp("resolved_at", { withTimezone: true, mode: "date", precision: 3 }),
    resolvedDetail: text("resolved_detail"),
  },
  (t) => [
    uniqueIndex("alerts_open_unique")
      .on(t.merchantId, t.rule, t.subject)
      .where(sql`${t.resolvedAt} is null`),
    index("alerts_merchant_idx").on(t.merchantId, t.openedAt.desc(), t.id.desc()),
  ],
);

/**
 * The request log (lib/request-log): one row per request to the invoice and management APIs
 * (withApiKey), written in batches off the request path and kept REQUEST_LOG_DAYS (30). The API key
 * by its prefix and last four only; the bodies with every secret and card number taken out
 * (lib/redaction) and cut at 16 kB. No foreign key but the merchant's: a row may name an invoice or
 * refund that a failed request never made.
 */
export const requestLog = pgTable(
  "request_log",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    testMode: boolean("test_mode").notNull(),
    createdAt: invoiceTime("created_at"),
    method: text("method").notNull(),
    path: text("path").notNull(),
    status: integer("status").notNull(),
    durationMs: integer("duration_ms").notNull(),
    apiKeyId: text("api_key_id").notNull(),
    /** `pok_test_`, `pok_live_` or `pok_`, and the key's last four characters. */
    keyPrefix: text("key_prefix").notNull(),
    keyLastFour: text("key_last_four").notNull(),
    requestId: text("request_id").notNull(),
    /** The Idempotency-Key header, else the body's `reference_id`. */
    idempotencyKey: text("idempotency_key"),
    invoiceId: text("invoice_id"),
    refundId: text("refund_id"),
    requestBody: text("request_body").notNull().default(""),
    requestTruncated: boolean("request_truncated").notNull().default(false),
    responseBody: text("response_body").notNull().default(""),
    responseTruncated: boolean("response_truncated").notNull().default(false),
  },
  (t) => [
    /** The Logs page, newest first, within the merchant and mode (keyset pages). */
    index("request_log_list_idx").on(t.merchantId, t.testMode, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst()),
    /** An invoice's requests (the invoice page's Requests link). */
    index("request_log_invoice_idx")
      .on(t.merchantId, t.invoiceId, t.createdAt.desc().nullsFirst())
      .where(sql`invoice_id is not null`),
    /** The sweep of rows past REQUEST_LOG_DAYS. */
    index("request_log_created_idx").on(t.createdAt),
  ],
);
export type RequestLogRow = typeof requestLog.$inferSelect;

/**
 * Every Pay that reached the risk check (lib/risk): what velocity limits count and what the invoice's
 * timeline shows of refused ones. Keyed hashes only (lib/risk/fingerprint.ts): never a card number,
 * e-mail or client address. `outcome`: open (sent, no answer yet: counted as a decline until it
 * settles, so simultaneous Pays cannot all pass), declined, succeeded, or blocked (refused here
 * with `rule`; never sent), or exempt (a sandbox's published test card in test mode: never counted).
 */
export const riskAttempts = pgTable(
  "risk_attempts",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    testMode: boolean("test_mode").notNull(),
    invoiceId: text("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    cardFingerprint: text("card_fingerprint"),
    /** The card as shown (brand and last four), for "Block this card" and the timeline. */
    cardLabel: text("card_label"),
    cardBin: text("card_bin"),
    addressHash: text("address_hash"),
    emailHash: text("email_hash"),
    outcome: text("outcome").$type<"open" | "declined" | "succeeded" | "blocked" | "exempt">().notNull(),
    rule: text("rule"),
    /** What the blocked attempt would have taken. */
    amount: text("amount").notNull(),
    currency: text("currency").notNull(),
    createdAt: invoiceTime("created_at"),
  },
  (t) => [
    // The key first: without the planner's statistics (the embedded PGlite never analyzes) an index
    // led by the merchant would serve any key's lookup by reading the merchant's whole day.
    index("risk_attempts_address_idx").on(t.addressHash, t.merchantId, t.testMode, t.createdAt),
    index("risk_attempts_card_idx").on(t.cardFingerprint, t.merchantId, t.testMode, t.createdAt),
    index("risk_attempts_email_idx").on(t.emailHash, t.merchantId, t.testMode, t.createdAt),
    index("risk_attempts_invoice_idx").on(t.invoiceId, t.createdAt),
    index("risk_attempts_blocked_idx")
      .on(t.merchantId, t.testMode, t.createdAt)
      .where(sql`${t.outcome} = 'blocked'`),
  ],
);

/** The merchant's blocklist, per mode: a card (its fingerprint), a BIN, an e-mail, a client address or range, a customer country. */
export const riskBlocklist = pgTable(
  "risk_blocklist",
  {
    id: text("id").primaryKey(),
    merchantId: text("merchant_id")
      .notNull()
      .references(() => merchants.id, { onDelete: "cascade" }),
    testMode: boolean("test_mode").notNull(),
    kind: text("kind").$type<"card" | "bin" | "email" | "address" | "country">().notNull(),
    /** The value matched: a card's fingerprint, BIN digits, a lower-case e-mail, an address or CIDR range, a country code. */
    value: text("value").notNull(),
    /** What the list shows: the value, or for a card its brand and last four. */
    label: text("label").notNull(),
    note: text("note").notNull().default(""),
    createdBy: text("created_by").notNull(),
    createdAt: invoiceTime("created_at"),
  },
  (t) => [
    uniqueIndex("risk_blocklist_unique").on(t.merchantId, t.testMode, t.kind, t.value),
    index("risk_blocklist_list_idx").on(t.merchantId, t.testMode, t.createdAt),
  ],
);

/** The merchant's velocity limits as tuned by an owner (absent: the defaults of lib/risk/settings.ts). */
export const riskSettings = pgTable("risk_settings", {
  merchantId: text("merchant_id")
    .primaryKey()
    .references(() => merchants.id, { onDelete: "cascade" }),
  settings: jsonb("settings").$type<Record<string, number>>().notNull(),
  /**
   * Raised with every change of the merchant's limits or blocklists (either mode), in the change's
   * transaction: Pay reads it with its lock and keeps the rules it read for as long as it stands.
   */
  version: integer("version").notNull().default(0),
  updatedAt: invoiceTime("updated_at"),
});
