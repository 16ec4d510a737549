import { can, type Capability, type Role } from "@/lib/identity/permissions";

/**
 * The dashboard's sections and the capability (lib/identity/permissions.ts) that opens each: the
 * navigation shows a link only where the page behind it lets the role in, and each page checks the
 * same capability with requirePageViewer.
 */
const SECTIONS = [
  // The setup checklist and a glance at the invoices; where sign-in and sign-up land.
  { href: "/home", label: "Home", capability: "invoices.read" },
  { href: "/providers", label: "Providers", capability: "connections.write" },
  { href: "/connections", label: "Connections", capability: "connections.write" },
  { href: "/invoices", label: "Invoices", capability: "invoices.read" },
  // Chargebacks: everyone who reads invoices reads them; answering needs disputes.respond in the dispute's mode.
  { href: "/disputes", label: "Disputes", capability: "invoices.read" },
  // Everyone sees what went wrong; the rules are changed by owners (alerts.manage).
  { href: "/alerts", label: "Alerts", capability: "alerts.read" },
  // What stopped Pays, the blocklist and the velocity limits: everyone reads; changing needs risk.block (per mode) or risk.settings.
  { href: "/risk", label: "Risk", capability: "invoices.read" },
  // Customer references, their saved cards and payments.
  { href: "/customers", label: "Customers", capability: "invoices.read" },
  // Everyone sees where invoices go; saving needs routing.write in the mode edited.
  { href: "/routing", label: "Routing", capability: "routing.read" },
  // Developers manage test keys there; live keys stay with owners.
  { href: "/api-keys", label: "API keys", capability: "keys.manage.test" },
  { href: "/team", label: "Team", capability: "team.manage" },
  { href: "/webhooks", label: "Webhooks", capability: "webhooks.read" },
  // Everyone has personal settings (password, two-factor, time zone); the business's need settings.write.
  { href: "/settings", label: "Settings", capability: "invoices.read" },
  // Who changed what; it names the team's people and keys.
  { href: "/audit-log", label: "Audit log", capability: "audit.read" },
  // Every API request with a key: owners in both modes, support in test mode (the page shows the view's mode).
  { href: "/logs", label: "Logs", capability: "logs.read.test" },
  { href: "/docs/api", label: "API reference", capability: "docs.read" },
  { href: "/docs/webhooks", label: "Webhook docs", capability: "docs.read" },
] as const satisfies readonly { href: string; label: string; capability: Capability }[];

export type SectionHref = (typeof SECTIONS)[number]["href"];

export function navigationFor(role: Role): { href: string; label: string }[] {
  return SECTIONS.filter((s) => can(role, s.capability)).map(({ href, label }) => ({ href, label }));
}

/** Where a member lands after signing in or up: the home page, for every role (each sees what it may use there). */
export function homeFor(_role: Role): string {
  return "/home";
}

/** Whether the role may open a dashboard section. */
export function maySee(href: SectionHref, role: Role): boolean {
  return SECTIONS.some((section) => section.href === href && can(role, section.capability));
}
