import type { Metadata } from "next";
import type { ReactNode } from "react";

export const metadata: Metadata = { title: "Payment", robots: { index: false, follow: false } };

/** The customer's page: no dashboard shell, one narrow column that suits a phone. */
export default function PayLayout({ children }: { children: ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col px-4 py-8 sm:py-12">
      <div className="card">{children}</div>
      <p className="mt-4 text-center text-xs text-slate-600">Secure payment page · Payment Orchestrator</p>
    </main>
  );
}
