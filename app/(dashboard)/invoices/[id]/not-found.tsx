import { Link } from "@/components/link";

export default function InvoiceNotFound() {
  return (
    <div className="card max-w-xl" data-testid="invoice-not-found">
      <h1 className="text-lg font-semibold">Invoice not found</h1>
      <p className="mt-1 text-sm text-slate-600">
        No invoice with this id exists for your merchant. It may belong to another merchant, or the id may be mistyped.
      </p>
      <Link href="/invoices" className="btn-secondary mt-4">
        Back to invoices
      </Link>
    </div>
  );
}
