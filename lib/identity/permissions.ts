/**
 * The one permission table: what each role of a team may do. Every check reads it (server
 * actions through validatedAction's `can`, dashboard routes through withSession, pages through
 * requirePageViewer, the composer's credential through withApiKey), and so do the navigation,
 * Home and the Team page's descriptions. Plain data, safe for client components.
 */
import type { Role } from "@/lib/db/schema";

export type { Role };

/** Each capability, named by what it does, with the words the Team page uses for it. */
export const CAPABILITIES = {
  "invoices.read": "see invoices, payouts, refunds and the overview",
  "invoices.compose.test": "create test invoices and payment links",
  "invoices.compose.live": "create live invoices and payment links",
  "money.refund.test": "refund test payments",
  "money.refund.live": "refund live payments",
  "money.capture.test": "capture or void test authorizations",
  "money.capture.live": "capture or void live authorizations",
  "payout.process.test": "process test payouts",
  "payout.process.live": "process live payouts",
  "payout.cancel.test": "cancel test payouts",
  "payout.cancel.live": "cancel live payouts",
  export: "export invoices as CSV",
  "connections.write": "connect providers and change their credentials",
  "keys.manage.test": "create, roll and revoke test API keys",
  "keys.manage.live": "create, roll and revoke live API keys",
  "webhooks.read": "read webhook endpoints and the event log",
  "webhooks.manage": "add and change webhook endpoints and resend events",
  "routing.read": "see the routing rules and versions",
  "routing.write.test": "change test routing",
  "routing.write.live": "change live routing and the success-rate settings",
  "audit.read": "read the audit log and export it",
  "team.manage": "invite members, change their roles and remove them",
  "settings.write": "change the business's settings",
  "docs.read": "read the API reference and webhook docs",
  "cards.remove.test": "remove customers' saved test cards",
  "cards.remove.live": "remove customers' saved live cards",
  "disputes.respond.test": "respond to test disputes: evidence, submit, accept",
  "disputes.respond.live": "respond to live disputes: evidence, submit, accept",
  "alerts.read": "see alerts and the alert rules",
  "alerts.manage": "change the alert rules",
  "logs.read.test": "read the log of test-mode API requests",
  "logs.read.live": "read the log of live-mode API requests",
  "risk.block.test": "add to and remove from the test blocklist",
  "risk.block.live": "add to and remove from the live blocklist",
  "risk.settings": "tune the velocity limits at Pay",
} as const;
export type Capability = keyof typeof CAPABILITIES;

const EVERYONE: Capability[] = ["invoices.read", "routing.read", "webhooks.read", "docs.read", "alerts.read"];

const PERMISSIONS: Record<Role, readonly Capability[]> = {
  owner: Object.keys(CAPABILITIES) as Capability[],
  developer: [...EVERYONE, "invoices.compose.test", "keys.manage.test", "webhooks.manage", "routing.write.test", "cards.remove.test"],
  finance: [
    ...EVERYONE,
    "money.refund.test",
    "money.refund.live",
    "money.capture.test",
    "money.capture.live",
    "export",
    "audit.read",
    "cards.remove.test",
    "cards.remove.live",
    "disputes.respond.test",
    "disputes.respond.live",
    "risk.block.test",
    "risk.block.live",
  ],
  support: [
    ...EVERYONE,
    "invoices.compose.test",
    "money.refund.test",
    "money.capture.test",
    "payout.process.test",
    "payout.cancel.test",
    "cards.remove.test",
    "disputes.respond.test",
    "logs.read.test",
    "risk.block.test",
  ],
  read_only: EVERYONE,
};

export const ROLE_NAMES: Record<Role, string> = { owner: "Owner", developer: "Developer", finance: "Finance", support: "Support", read_only: "Read-only" };

/** One line about each role, beyond what its capabilities list: what it is for. */
const ROLE_PURPOSE: Record<Role, string> = {
  owner: "Everything, in test and live mode.",
  developer: "Integrates the shop: no money moves, no live credentials.",
  finance: "Reads everything and moves money back: no configuration.",
  support: "Helps customers: moves test money only.",
  read_only: "Looks, changes nothing.",
};

export function can(role: Role, capability: Capability): boolean {
  return PERMISSIONS[role].includes(capability);
}

/** The mode-scoped capabilities: `${family}.test` and `${family}.live`. */
export type ModeFamily =
  | "invoices.compose"
  | "money.refund"
  | "money.capture"
  | "payout.process"
  | "payout.cancel"
  | "keys.manage"
  | "routing.write"
  | "cards.remove"
  | "disputes.respond"
  | "logs.read"
  | "risk.block";

/** What a role may do of a family in a mode. */
export function canInMode(role: Role, family: ModeFamily, mode: "test" | "live"): boolean {
  return can(role, `${family}.${mode}` as Capability);
}

/** Whether the role may do any of the family (in either mode): who may reach the action at all. */
export function canAnyMode(role: Role, family: ModeFamily): boolean {
  return canInMode(role, family, "test") || canInMode(role, family, "live");
}

const FAMILY_WORDS: Record<ModeFamily, string> = {
  "invoices.compose": "create invoices",
  "money.refund": "refund payments",
  "money.capture": "capture or void authorizations",
  "payout.process": "process payouts",
  "payout.cancel": "cancel payouts",
  "keys.manage": "manage API keys",
  "routing.write": "change routing",
  "cards.remove": "remove saved cards",
  "disputes.respond": "respond to disputes",
  "logs.read": "read the request log",
  "risk.block": "change the blocklist",
};

/** What a check needs: one capability, or a mode-scoped family in either mode (the action then checks the mode). */
export type Permission = Capability | ModeFamily;

export function allows(role: Role, permission: Permission): boolean {
  return permission in CAPABILITIES ? can(role, permission as Capability) : canAnyMode(role, permission as ModeFamily);
}

/** The refusal a role gets, in the table's words: "Support members may not change the business's settings." */
export function refusalFor(role: Role, permission: Permission): string {
  const words = permission in CAPABILITIES ? CAPABILITIES[permission as Capability] : FAMILY_WORDS[permission as ModeFamily];
  return `Your role (${ROLE_NAMES[role]}) may not ${words}.`;
}

/** A mode-scoped refusal: "Your role (Support) may not refund live payments." */
export function modeRefusal(role: Role, family: ModeFamily, mode: "test" | "live"): string {
  return refusalFor(role, `${family}.${mode}` as Capability);
}

/** The Team page's words for a role, generated from the table. */
export function describeRole(role: Role): { name: string; purpose: string; may: string[] } {
  if (role === "owner") return { name: ROLE_NAMES.owner, purpose: ROLE_PURPOSE.owner, may: ["everything below, and own the business"] };
  return { name: ROLE_NAMES[role], purpose: ROLE_PURPOSE[role], may: PERMISSIONS[role].map((c) => CAPABILITIES[c]) };
}

/** The roles in the order the Team page and the invitation form list them. */
export const ROLE_ORDER = Object.keys(PERMISSIONS) as Role[];

/** The roles a permission is given to, in words: "Owner or Developer". */
export function rolesAllowing(permission: Permission): string {
  const names = ROLE_ORDER.filter((role) => allows(role, permission)).map((role) => ROLE_NAMES[role]);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names.at(-1)}` : (names[0] ?? "");
}
