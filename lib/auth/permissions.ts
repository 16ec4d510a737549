import type { Role } from "@/lib/db/schema";

/** Who may open which part of the dashboard; pages and actions check the same table. */
const SECTIONS = [
  { href: "/providers", label: "Providers", roles: ["owner"] },
  { href: "/connections", label: "Connections", roles: ["owner"] },
  { href: "/invoices", label: "Invoices", roles: ["owner", "support"] },
  // Support members see where test invoices go, read-only; the page and its action let only owners save.
  { href: "/routing", label: "Routing", roles: ["owner", "support"] },
  { href: "/api-keys", label: "API keys", roles: ["owner"] },
  { href: "/team", label: "Team", roles: ["owner"] },
  { href: "/settings", label: "Settings", roles: ["owner", "support"] },
] as const satisfies readonly { href: string; label: string; roles: readonly Role[] }[];

export function navigationFor(role: Role): { href: string; label: string }[] {
  return SECTIONS.filter((s) => (s.roles as readonly Role[]).includes(role)).map(({ href, label }) => ({ href, label }));
}

export function homeFor(role: Role): string {
  return role === "owner" ? "/providers" : "/invoices";
}
