import type { Role } from "@/lib/db/schema";

/** Who may open which part of the dashboard; pages and actions check the same table. */
const SECTIONS = [
  // The setup checklist and a glance at the invoices; where sign-in and sign-up land.
  { href: "/home", label: "Home", roles: ["owner", "support"] },
  { href: "/providers", label: "Providers", roles: ["owner"] },
  { href: "/connections", label: "Connections", roles: ["owner"] },
  { href: "/invoices", label: "Invoices", roles: ["owner", "support"] },
  // Support members see where test invoices go, read-only; the page and its action let only owners save.
  { href: "/routing", label: "Routing", roles: ["owner", "support"] },
  { href: "/api-keys", label: "API keys", roles: ["owner"] },
  { href: "/team", label: "Team", roles: ["owner"] },
  // Endpoints (owners manage them) and the event log with resends (owners); support members read both.
  { href: "/webhooks", label: "Webhooks", roles: ["owner", "support"] },
  { href: "/settings", label: "Settings", roles: ["owner", "support"] },
  // Who changed what: connections, routing, keys, team, settings, refunds, two-factor. Owners only,
  // as it names the team's people and keys and the changes only owners may make.
  { href: "/audit-log", label: "Audit log", roles: ["owner"] },
  // Reference for whoever integrates: the invoice API and the webhooks the service sends.
  { href: "/docs/api", label: "API reference", roles: ["owner", "support"] },
  { href: "/docs/webhooks", label: "Webhook docs", roles: ["owner", "support"] },
] as const satisfies readonly { href: string; label: string; roles: readonly Role[] }[];

export function navigationFor(role: Role): { href: string; label: string }[] {
  return SECTIONS.filter((s) => (s.roles as readonly Role[]).includes(role)).map(({ href, label }) => ({ href, label }));
}

/** Where a member lands after signing in or up: the home page, for both roles (each sees what it may use there). */
export function homeFor(_role: Role): string {
  return "/home";
}

/** Whether the role may see a dashboard section (and what its routes hand out, such as the invoice export). */
export function maySee(href: (typeof SECTIONS)[number]["href"], role: Role): boolean {
  return SECTIONS.some((section) => section.href === href && (section.roles as readonly Role[]).includes(role));
}
