"use server";

import { revalidatePath } from "next/cache";
import { personActor } from "@/lib/audit/record";
import { getDb } from "@/lib/db/client";
import { readInvoice } from "@/lib/invoices/store";
import { ok, refuse } from "@/lib/problems";
import { addBlocklistFormSchema, blockInvoiceCardSchema, removeBlocklistFormSchema, riskSimulationSchema } from "@/lib/risk/form-schemas";
import { riskSettingsSchema } from "@/lib/risk/settings";
import { simulateRisk } from "@/lib/risk/simulate";
import { addBlocklistEntry, lastCardOfInvoice, removeBlocklistEntry, saveRiskSettings } from "@/lib/risk/store";
import { assertMayInMode, validatedAction } from "./validated-action";

/**
 * The Risk page and the invoice page's "Block this card": the blocklist per mode (risk.block in
 * that mode), the velocity limits (risk.settings: owners), and the simulator (anyone who sees
 * invoices). Every change is audited in its own transaction (lib/risk/store.ts).
 */
export const addBlocklistEntryAction = validatedAction("risk.blocklist-add", { schema: addBlocklistFormSchema, can: "risk.block" }, async (input, viewer) => {
  assertMayInMode(viewer, "risk.block", input.mode);
  const view = await addBlocklistEntry(await getDb(), { merchantId: viewer.merchant.id, actor: personActor(viewer), mode: input.mode }, input);
  revalidatePath("/risk");
  return ok({ id: view.id });
});

export const removeBlocklistEntryAction = validatedAction(
  "risk.blocklist-remove",
  { schema: removeBlocklistFormSchema, can: "risk.block" },
  async (input, viewer) => {
    assertMayInMode(viewer, "risk.block", input.mode);
    const removed = await removeBlocklistEntry(await getDb(), { merchantId: viewer.merchant.id, actor: personActor(viewer), mode: input.mode }, input.id);
    if (!removed) return refuse("not_found", "This blocklist entry does not exist.");
    revalidatePath("/risk");
    return ok({ id: input.id });
  },
);

/** "Block this card" on an invoice: the card that last paid or tried to pay it, in the invoice's mode; another merchant's invoice is not found. */
export const blockInvoiceCardAction = validatedAction("risk.block-card", { schema: blockInvoiceCardSchema, can: "risk.block" }, async (input, viewer) => {
  const db = await getDb();
  const invoice = await readInvoice(db, input.invoiceId);
  if (!invoice || invoice.merchantId !== viewer.merchant.id) return refuse("not_found", "This invoice does not exist.");
  const mode = invoice.testMode ? "test" : "live";
  assertMayInMode(viewer, "risk.block", mode);
  const card = await lastCardOfInvoice(db, invoice.id);
  if (!card) return refuse("no_card", "No card has been tried on this invoice yet.");
  const view = await addBlocklistEntry(
    db,
    { merchantId: viewer.merchant.id, actor: personActor(viewer), mode },
    { kind: "card", value: card.fingerprint, label: card.label, note: `from invoice ${invoice.id}` },
  );
  revalidatePath(`/invoices/${invoice.id}`);
  revalidatePath("/risk");
  return ok({ id: view.id, label: card.label });
});

export const saveRiskSettingsAction = validatedAction("risk.settings", { schema: riskSettingsSchema, can: "risk.settings" }, async (input, viewer) => {
  await saveRiskSettings(await getDb(), { merchantId: viewer.merchant.id, actor: personActor(viewer) }, input);
  revalidatePath("/risk");
  return ok(input);
});

/** Every member reads invoices, so every member may ask the simulator (it reads, and counts nothing). */
export const simulateRiskAction = validatedAction("risk.simulate", { schema: riskSimulationSchema }, async (input, viewer) =>
  ok(await simulateRisk(await getDb(), viewer.merchant.id, input)),
);
