import "server-only";
import type { Db } from "@/lib/db/client";
import type { Problem } from "@/lib/problems";
import type { CredentialValues, Mode } from "@/lib/providers";
import type { SandboxRecord } from "@/lib/sandbox/records";
import type { DisputeReport, ProviderAdapter, ProviderOutcome, RefundOutcome } from "@/lib/providers/kit/adapter";

/**
 * The server half of a provider folder (`lib/providers/<slug>/server.ts`, server-only): its
 * adapter, its sandbox, and the hooks through which the engine asks what only the provider knows.
 * `lib/providers/server/servers.ts` loads it for every provider of the registry; nothing else
 * names it.
 */
export type ProviderServer = {
  slug: string;
  adapter: ProviderAdapter;
  sandbox: SandboxHandler;
  /** Its asynchronous notifications: absent for a provider that sends none (test fakes). */
  callbacks?: ProviderCallbacks;
  /**
   * Whether a verified callback may change the attempt, decided by the connection's credentials
   * (Provider E's `ignore_callback`). Absent: it always may.
   */
  callbackPolicy?: (credentials: CredentialValues, about: CallbackReport["about"]) => CallbackPolicy;
  /**
   * Checks a connection's own live address (the credential its kind names in `liveUrlField`)
   * before it receives the connection's secrets: when the connection is saved and again before
   * each live request. Required of a provider with such a kind; a live request to an address no
   * hook checks is not sent.
   */
  guardLiveUrl?: (value: unknown, phase: LiveUrlPhase) => Promise<Problem[]>;
};

/** `save`: a host that does not resolve yet is accepted; `send`: it must resolve, to a public address. */
type LiveUrlPhase = "save" | "send";

/** A verified callback is applied, or stored as `ignored` with the reason. */
export type CallbackPolicy = { apply: true } | { apply: false; reason: string };

/**
 * Both sides of a provider's callback scheme (`lib/providers/<slug>/callbacks.ts`): the sandbox
 * builds and signs a notification about one of its records, the service verifies one over the raw
 * body before reading it. Every scheme carries a notification id and a timestamp, and its
 * signature covers both and the raw body.
 */
export type ProviderCallbacks = {
  /** Request headers worth storing with a received callback (lower case; the signature headers hold no secret). */
  headers: readonly string[];
  /** Sandbox side: the provider's notification object about its record as it is now; undefined when there is nothing to say. */
  eventFromRecord(record: SandboxRecord): unknown;
  /** Sandbox side: the request the provider sends, signed with the connection's credentials or its own key. */
  sign(input: SignCallbackInput): SignedCallback;
  /** Service side: verified against the connection the path names, then parsed. */
  verify(request: CallbackRequest, credentials: CredentialValues, options: VerifyCallbackOptions): CallbackVerification;
};

type SignCallbackInput = {
  /** What `eventFromRecord` gave (or, in tests, the provider's object written by hand). */
  event: unknown;
  credentials: CredentialValues;
  notificationId: string;
  /** Unix seconds. */
  timestamp: number;
};

export type SignedCallback = { headers: Record<string, string>; rawBody: string };

export type CallbackRequest = { headers: Headers; rawBody: string };

export type VerifyCallbackOptions = { mode: Mode; /** Unix seconds; now by default. */ now?: number };

/**
 * What a verified notification reports: about one of our attempts (a payment or payout; the
 * merchant reference is the attempt's id, its idempotency key), about one of our refunds (the
 * merchant reference is the refund's id, which the provider received as the refund's key), or
 * about a dispute of one of our payments (the provider reference is the dispute's; the report
 * names the payment).
 */
export type CallbackReport = {
  providerReference?: string;
  merchantReference?: string;
} & ({ about: "attempt"; outcome: ProviderOutcome } | { about: "refund"; outcome: RefundOutcome } | { about: "dispute"; dispute: DisputeReport });

export type CallbackNotification = { notificationId: string; occurredAt: Date } & CallbackReport;

export type CallbackVerification = { ok: true; notification: CallbackNotification } | { ok: false; status: 400 | 401; reason: string };

/**
 * One provider's simulated API, served under `/sandbox/<slug>/…` by
 * `app/sandbox/[slug]/[[...path]]/route.ts`. It has its own wire format, checks credentials as
 * the provider would (looking the account up among test-mode connections, `lib/sandbox/accounts.ts`),
 * decides outcomes from the test cards (`lib/sandbox/cards.ts`) and keeps its own record of what it
 * received (`lib/sandbox/records.ts`).
 */
export type SandboxHandler = (request: Request, context: SandboxContext) => Promise<Response>;

export type SandboxContext = {
  /** The path below `/sandbox/<slug>`, split on "/", e.g. ["v1", "payments"]. */
  path: string[];
  db: Db;
  /** This server's public base URL, for links the sandbox hands out (its 3-D Secure page). */
  publicBaseUrl: string;
};
