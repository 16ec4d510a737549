import "server-only";
import { randomUUID } from "node:crypto";
import QRCode from "qrcode";
import { publicBaseUrl } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import type { Merchant } from "@/lib/identity/membership";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { hostedPagePath } from "@/lib/invoices/read/hosted-page";
import { logger } from "@/lib/logger";
import { sendMail } from "@/lib/mail";
import { paymentLinkMail } from "@/lib/mail/messages";
import { formatMinor } from "@/lib/money";
import { fail, ok, problem, testModeOnly, type Problem, type Result } from "@/lib/problems";
import { listServices } from "@/lib/providers";
import type { PaymentLink, PaymentLinkValues } from "./schema";

export type { PaymentLink } from "./schema";

/** The payment services with a hosted page in a currency: the ones a link can lead to. */
function paymentLinkServices(currency: string): string[] {
  return listServices()
    .filter((service) => service.direction === "payment" && service.hostedPage && service.currency === currency)
    .map((service) => service.code);
}

/** Every currency some provider takes on a hosted page, for the form's choice. */
export function paymentLinkCurrencies(): string[] {
  const currencies = listServices()
    .filter((service) => service.direction === "payment" && service.hostedPage)
    .map((service) => service.currency);
  return [...new Set(currencies)].sort();
}

const FIELD_OF_POINTER: Readonly<Record<string, keyof PaymentLinkValues>> = {
  "/data/attributes/amount": "amount",
  "/data/attributes/currency": "currency",
  "/data/attributes/description": "description",
  "/data/attributes/customer/email": "email",
};

/** The invoice contract's problems on the form's fields (anything else is the form's alert). */
function onFields(problems: readonly Problem[]): Problem[] {
  return problems.map((p) => {
    const pointer = `/${p.path.join("/")}`;
    const field = FIELD_OF_POINTER[pointer];
    return field ? problem(p.code, p.message, [field]) : problem(p.code, p.message);
  });
}

/**
 * Creates a payment invoice from plain words (amount, currency, description, the customer's
 * e-mail), on the first hosted-page service of that currency the merchant's routing can take in
 * the mode, and e-mails its hosted page to the customer (SMTP, or the outbox without it). The
 * invoice goes through createInvoice like any other, so the contract, routing and idempotency are
 * the API's. `testOnly`: a support member's link is a test one.
 */
export async function createPaymentLink(
  db: Db,
  merchant: Pick<Merchant, "id" | "name" | "commerceAccount">,
  input: PaymentLinkValues,
  options: { testOnly: boolean },
): Promise<Result<PaymentLink>> {
  if (options.testOnly && !input.test_mode) return fail([{ ...testModeOnly("create", "payment link"), path: ["test_mode"] }]);
  const mode = input.test_mode ? "test" : "live";
  const services = paymentLinkServices(input.currency);
  if (services.length === 0) return fail([problem("currency_unsupported", `No provider takes ${input.currency} on a hosted payment page.`, ["currency"])]);
  for (const service of services) {
    const body = {
      data: {
        type: "payment-invoice",
        attributes: {
          service,
          commerce_account: merchant.commerceAccount,
          currency: input.currency,
          amount: input.amount,
          reference_id: `link-${randomUUID()}`,
          flow: "charge",
          test_mode: input.test_mode,
          description: input.description,
          customer: { email: input.email },
        },
      },
    };
    const created = await createInvoice(db, merchant, "payment", body, { testOnly: options.testOnly });
    if (created.kind === "unroutable") continue;
    if (created.kind === "invalid") return fail(onFields(created.problems));
    if (created.kind !== "created") return fail([problem("not_created", "The payment link could not be created. Nothing was sent; try again.")]);
    const invoice = created.invoice;
    const url = `${publicBaseUrl()}${hostedPagePath(invoice)}`;
    const amount = formatMinor(invoice.amountMinor, invoice.currency);
    let emailed = true;
    try {
      await sendMail(
        db,
        paymentLinkMail(input.email, { merchantName: merchant.name, amount, currency: invoice.currency, description: input.description, link: url }),
      );
    } catch (error) {
      emailed = false;
      logger.error("payment link e-mail not sent", { invoiceId: invoice.id, error: error instanceof Error ? error.message : "unknown" });
    }
    const qrSvg = await QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
    return ok({ invoiceId: invoice.id, url, qrSvg, email: input.email, emailed, amount, currency: invoice.currency, testMode: invoice.testMode });
  }
  return fail([
    problem(
      "no_connection",
      `No enabled ${mode} connection takes ${input.currency} payments on a hosted page. Add one on Connections (or check your routing order), or choose another currency.`,
      ["currency"],
    ),
  ]);
}
