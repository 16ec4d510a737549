import { randomBytes } from "node:crypto";
import { eq, inArray } from "drizzle-orm";
import { createApiKey } from "@/lib/api-keys/queries";
import { findTemplate, templateEnvelope } from "@/lib/composer/templates";
import { listConnections } from "@/lib/connections/queries";
import { createConnectionSchema } from "@/lib/connections/schemas";
import { createConnection } from "@/lib/connections/service";
import { credentialsKey } from "@/lib/vault/vault-key";
import { publicBaseUrl } from "@/lib/config";
import type { Db } from "@/lib/db/client";
import { invoices as invoiceTable, merchants } from "@/lib/db/schema";
import { createInvoice } from "@/lib/invoices/create/create-invoice";
import { findUserByEmail } from "@/lib/identity/membership";
import { hashPassword } from "@/lib/identity/password";
import { setPassword } from "@/lib/identity/sessions";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { startCreatedInvoice } from "@/lib/processing/after-create";
import { payWithCard } from "@/lib/processing/engine";
import { createRefund } from "@/lib/refunds/create-refund";
import { PROVIDERS, type ConnectionKind } from "@/lib/providers";
import { sampleCredentials } from "@/lib/providers/server/sample-credentials";
import { startSeedSandboxes } from "./sandbox-server";

const DEMO_EMAIL = "demo@example.com";
const DEMO_ACCOUNT = "demo";

export type SeedDemoOptions = {
  /** Sets a new password when the demo merchant exists (`--reset`). */
  reset?: boolean;
  /** Tests seed their own merchant; the command always seeds demo@example.com / demo. */
  email?: string;
  commerceAccount?: string;
};

type Card = { number: string; expiryMonth: number; expiryYear: number; holder: string; cvc: string };
const card = (number: string): Card => ({ number, expiryMonth: 12, expiryYear: 2030, holder: "Demo Customer", cvc: "123" });

/**
 * The sample invoices, each under a fixed reference_id so a second run replays instead of adding:
 * the test cards of lib/sandbox/cards.ts decide what each sandbox does.
 */
type Sample = {
  referenceId: string;
  template: string;
  provider: string;
  kind: ConnectionKind;
  intended: string;
  change?: (attributes: Record<string, unknown>) => void;
  card?: string;
  /** Refunds made after the payment, in order ("all" is the whole rest). */
  refunds?: readonly string[];
};

const SAMPLES: readonly Sample[] = [
  { referenceId: "demo-processed-1", template: "a-payment", provider: "provider-a", kind: "provider_account", intended: "processed", card: "4242424242424242" },
  {
    referenceId: "demo-refunded-1",
    template: "b-payment",
    provider: "provider-b",
    kind: "h2h",
    intended: "refunded",
    card: "4242424242424242",
    refunds: ["all"],
  },
  {
    referenceId: "demo-partially-refunded-1",
    template: "f-payment",
    provider: "provider-f",
    kind: "h2h",
    intended: "partially_refunded",
    card: "4242424242424242",
    refunds: ["10.00"],
  },
  { referenceId: "demo-declined-1", template: "b-payment", provider: "provider-b", kind: "h2h", intended: "process_failed", card: "4000000000000002" },
  { referenceId: "demo-created-1", template: "a-payment", provider: "provider-a", kind: "provider_account", intended: "created" },
  // The 3-D Secure step is never completed: the invoice waits in process_pending and, once the
  // seed's sandbox server is gone, the running app's reconciliation decides it.
  {
    referenceId: "demo-3ds-1",
    template: "c-payment-amd",
    provider: "provider-c",
    kind: "provider_account",
    intended: "process_pending",
    card: "4000000000003220",
  },
  {
    referenceId: "demo-payout-1",
    template: "a-payout",
    provider: "provider-a",
    kind: "h2h",
    intended: "processed",
    // Over 10,000.00 with split_mode: paid out in parts, processed at creation (auto_process).
    change: (attributes) => {
      attributes.amount = "30000.00";
      attributes.options = { split_mode: true, auto_process: true };
    },
  },
];

type SeededInvoice = { referenceId: string; id: string; direction: string; provider: string; status: string; created: boolean; hostedPage?: string };

function newPassword(): string {
  return `demo-${randomBytes(6).toString("hex")}1`;
}

async function createConnections(db: Db, merchantId: string) {
  const scope = { db, merchantId, actor: { label: "seed-demo" }, vaultKey: credentialsKey() };
  for (const provider of PROVIDERS) {
    for (const kind of provider.kinds) {
      const label = `${provider.name} ${kind.label} (test)`;
      const input = createConnectionSchema.parse({
        provider: provider.slug,
        kind: kind.kind,
        label,
        mode: "test",
        credentials: sampleCredentials(provider.slug, kind.kind, "test"),
      });
      const result = await createConnection(scope, input);
      if (!result.ok) throw new Error(`${label}: ${result.problems.map((p) => p.message).join("; ")}`);
    }
  }
}

/**
 * Creates the sample invoices through the code the API routes run (createInvoice with the route's
 * start-up step, then the engine for the hosted page's card), against the real sandboxes served
 * in-process. A replayed reference is left as it is, so a second run adds nothing.
 */
async function seedInvoices(db: Db, merchant: { id: string; commerceAccount: string }): Promise<SeededInvoice[]> {
  const connections = await listConnections(db, merchant.id, { mode: "test" });
  const sandboxes = await startSeedSandboxes(db);
  const seeded: SeededInvoice[] = [];
  try {
    for (const sample of SAMPLES) {
      const template = findTemplate(sample.template);
      const connection = connections.find((c) => c.provider === sample.provider && c.kind === sample.kind && c.enabled);
      if (!template || !connection) throw new Error(`${sample.referenceId}: no ${sample.provider} ${sample.kind} test connection`);
      const body = templateEnvelope(template, { commerceAccount: merchant.commerceAccount, referenceId: sample.referenceId, connectionId: connection.id });
      sample.change?.(body.data.attributes as Record<string, unknown>);
      const result = await startCreatedInvoice(db, await createInvoice(db, merchant, template.direction, body));
      if (result.kind !== "created" && result.kind !== "replayed") {
        throw new Error(`${sample.referenceId}: the invoice was not created (${result.kind})`);
      }
      let invoice = result.invoice;
      if (result.kind === "created" && sample.card) {
        const paid = await payWithCard(db, invoice.id, card(sample.card));
        if (paid.kind !== "refused" && "invoice" in paid && paid.invoice) invoice = paid.invoice;
        for (const [index, amount] of (sample.refunds ?? []).entries()) {
          const body = {
            data: {
              type: "refund",
              attributes: { reference_id: `${sample.referenceId}-refund-${index + 1}`, reason: "Demo refund", ...(amount === "all" ? {} : { amount }) },
            },
          };
          const refunded = await createRefund(db, { merchantId: merchant.id, invoiceId: invoice.id, body, testOnly: false, createdBy: "seed-demo" });
          if (refunded.kind !== "created" && refunded.kind !== "replayed") throw new Error(`${sample.referenceId}: the refund was not made (${refunded.kind})`);
        }
      }
      seeded.push({
        referenceId: sample.referenceId,
        id: invoice.id,
        direction: invoice.direction,
        provider: sample.provider,
        status: invoice.status,
        created: result.kind === "created",
      });
    }
  } finally {
    await sandboxes.close();
  }
  // A replay answers the row as stored at creation: read the statuses as they stand now.
  const ids = seeded.map((entry) => entry.id);
  const rows = await db.select({ id: invoiceTable.id, status: invoiceTable.status }).from(invoiceTable).where(inArray(invoiceTable.id, ids));
  const base = publicBaseUrl();
  return seeded.map((entry) => {
    const status = rows.find((row) => row.id === entry.id)?.status ?? entry.status;
    return { ...entry, status, ...(status === "created" && entry.direction === "payment" ? { hostedPage: `${base}/pay/${entry.id}` } : {}) };
  });
}

/**
 * A demo merchant to click around with: one test-mode connection per provider and kind, an API
 * key, a printed password and sample invoices in several states. An existing demo merchant keeps
 * its password unless `reset` is set (`--reset`); its missing sample invoices are added either way.
 */
export async function seedDemo(db: Db, options: SeedDemoOptions = {}): Promise<Record<string, unknown>> {
  const email = options.email ?? DEMO_EMAIL;
  const commerceAccount = options.commerceAccount ?? DEMO_ACCOUNT;
  const existing = await findUserByEmail(db, email);
  if (existing && !options.reset) {
    throw new Error(
      `${email} exists already; nothing was changed. Run \`npm run admin -- seed-demo --reset\` to set a new password and add any missing sample invoices.`,
    );
  }
  const password = newPassword();
  let merchant: { id: string; commerceAccount: string };
  let apiKey: string | undefined;
  if (existing) {
    // Whoever had the old demo password may be signed in: the new one ends those sessions.
    await setPassword(db, existing.id, await hashPassword(password));
    const [row] = await db
      .select({ id: merchants.id, commerceAccount: merchants.commerceAccount })
      .from(merchants)
      .where(eq(merchants.commerceAccount, commerceAccount));
    if (!row)
      throw new Error(`--reset: the password of ${email} was reset, but its merchant ${commerceAccount} was not found, so no sample invoices were added`);
    merchant = row;
  } else {
    const created = await createMerchantWithOwner(db, { email, password, name: "Demo Owner", merchantName: "Demo Merchant", commerceAccount });
    if (!created.ok) throw new Error(created.problems.map((p) => p.message).join("; "));
    merchant = { id: created.value.merchant.id, commerceAccount: created.value.merchant.commerceAccount };
    apiKey = (await createApiKey(db, { merchantId: merchant.id, name: "Demo key" })).key;
    await createConnections(db, merchant.id);
  }
  const invoices = await seedInvoices(db, merchant);
  const connections = (await listConnections(db, merchant.id, { mode: "test" })).map((c) => ({ provider: c.provider, kind: c.kind, label: c.label }));
  const base = publicBaseUrl();
  return {
    summary: `${existing ? "Password reset" : "Demo merchant created"}; ${invoices.filter((i) => i.created).length} sample invoice(s) added, ${invoices.filter((i) => !i.created).length} already there. Sign in at ${base}/sign-in as ${email}.`,
    email,
    password,
    merchantId: merchant.id,
    commerceAccount: merchant.commerceAccount,
    ...(apiKey ? { apiKey } : {}),
    open: `${base}/sign-in`,
    connections,
    invoices,
  };
}
