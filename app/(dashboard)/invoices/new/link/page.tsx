import type { Metadata } from "next";
import { NewInvoiceModes } from "@/components/invoices/new-invoice-modes";
import { PaymentLinkForm } from "@/components/invoices/payment-link/payment-link-form";
import { PageHeader } from "@/components/shell/page-header";
import { canInMode } from "@/lib/identity/permissions";
import { requirePageViewer } from "@/lib/auth/viewer";
import { paymentLinkCurrencies } from "@/lib/payment-links/create-payment-link";

export const metadata: Metadata = { title: "New payment link" };

export default async function NewPaymentLinkPage() {
  const viewer = await requirePageViewer("invoices.compose");
  return (
    <>
      <PageHeader title="New invoice" description="Send your customer a link to pay: by e-mail, and as a link and QR code to share yourself." />
      <NewInvoiceModes mode="link" />
      <PaymentLinkForm currencies={paymentLinkCurrencies()} canGoLive={canInMode(viewer.user.role, "invoices.compose", "live")} />
    </>
  );
}
