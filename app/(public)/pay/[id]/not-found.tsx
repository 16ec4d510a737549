export default function PayNotFound() {
  return (
    <div data-testid="pay-not-found">
      <h1 className="text-lg font-semibold">Payment page not found</h1>
      <p className="mt-1 text-sm text-slate-600">
        This link does not lead to a payment. Check that it was copied completely, or ask the merchant for a new one.
      </p>
    </div>
  );
}
