import type { Metadata } from "next";
import type { ReactNode } from "react";

export const metadata: Metadata = { title: "3-D Secure (sandbox)", robots: { index: false, follow: false } };

/** Plays the card issuer's page: deliberately not the service's look. */
export default function ThreeDsLayout({ children }: { children: ReactNode }) {
  return (
    <main className="mx-auto flex min-h-screen w-full max-w-md flex-col px-4 py-8 sm:py-12">
      <div className="rounded-lg border-2 border-slate-300 bg-white p-5">{children}</div>
      <p className="mt-4 text-center text-xs text-slate-600">Sandbox card issuer · test mode only</p>
    </main>
  );
}
