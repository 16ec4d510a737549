import { Link } from "@/components/link";

/**
 * New invoice's two modes: "Payment link" in plain words, and "Advanced", the composer with every
 * attribute of the API. Each is its own route, so one mode's client code never ships with the other.
 */
export function NewInvoiceModes({ mode }: { mode: "link" | "advanced" }) {
  const tab = (target: "link" | "advanced", href: string, label: string) => (
    <Link href={href} aria-current={mode === target ? "page" : undefined} className={mode === target ? "btn-primary" : "btn-secondary"}>
      {label}
    </Link>
  );
  return (
    <nav aria-label="How to create the invoice" className="mb-6 flex flex-wrap gap-2">
      {tab("link", "/invoices/new/link", "Payment link")}
      {tab("advanced", "/invoices/new", "Advanced: API request")}
    </nav>
  );
}
