import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { OnUseEarlyScript } from "@/components/forms/on-use-early-script";
import { ZodJitless } from "@/components/security/zod-jitless";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Payment Orchestrator", template: "%s · Payment Orchestrator" },
  description: "Connect payment providers and follow your invoices.",
  // Files in public/; /favicon.ico stays for browsers that ask for it without reading the page.
  icons: {
    icon: [
      { url: "/logo.svg", type: "image/svg+xml" },
      { url: "/favicon.ico", sizes: "16x16 32x32 48x48" },
    ],
  },
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page is rendered per request: its scripts carry that response's CSP nonce (proxy.ts).
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen">
        <OnUseEarlyScript />
        <ZodJitless />
        {children}
      </body>
    </html>
  );
}
