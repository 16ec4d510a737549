"use client";

/** Something failed on our side: say so plainly, and promise nothing about the payment itself. */
export default function PayError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div role="alert">
      <h1 className="text-lg font-semibold">This payment page could not be shown</h1>
      <p className="mt-1 text-sm text-slate-600">
        Please try again in a moment. If it keeps failing, contact the merchant and quote <code>{error.digest ?? "n/a"}</code>.
      </p>
      <button type="button" className="btn-primary mt-4" onClick={reset}>
        Try again
      </button>
    </div>
  );
}
