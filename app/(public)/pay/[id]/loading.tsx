export default function PayLoading() {
  return (
    <div role="status" aria-live="polite" className="space-y-3">
      <span className="sr-only">Loading the payment…</span>
      <div className="h-5 w-32 animate-pulse rounded bg-slate-200" />
      <div className="h-9 w-40 animate-pulse rounded bg-slate-200" />
      <div className="h-48 animate-pulse rounded bg-slate-200" />
    </div>
  );
}
