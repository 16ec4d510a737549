import { Link } from "@/components/link";

export default function CustomerNotFound() {
  return (
    <div className="card max-w-xl" data-testid="customer-not-found">
      <h1 className="text-lg font-semibold">Customer not found</h1>
      <p className="mt-1 text-sm text-slate-600">
        No payment or saved card of yours names this customer reference in this view. It may be in the other mode (switch Test/Live), or the reference may be
        mistyped.
      </p>
      <Link href="/customers" className="btn-secondary mt-4">
        Back to customers
      </Link>
    </div>
  );
}
