import { randomBytes, randomUUID } from "node:crypto";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { sampleCredentials } from "../../lib/providers/server/sample-credentials";
import type { ConnectionKind } from "../../lib/providers/types";
import { liveControl } from "./forms-on-use";
import { pemFile, pemPair } from "./keys";

export const pair = pemPair();
export const otherPair = pemPair();

/** The management API's headers for a key. */
export const apiHeaders = (apiKey: string) => ({ Authorization: `Bearer ${apiKey}`, "Content-Type": "application/vnd.api+json" });

/** A test connection with the provider's sample credentials, made through the management API; its id. */
export async function connectByApi(api: APIRequestContext, apiKey: string, provider: string, kind: ConnectionKind, label: string): Promise<string> {
  const attributes = { provider, kind, label, mode: "test", credentials: sampleCredentials(provider, kind, "test") };
  const response = await api.post("/api/connections", { headers: apiHeaders(apiKey), data: { data: { type: "connection", attributes } } });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()).data.id as string;
}

/**
 * A Provider B test connection (H2H, EUR) made through the management API, and one EUR hosted-page
 * payment invoice routed to it: what the time-zone specs look at. Its id and creation time.
 */
export async function oneEurInvoice(
  api: APIRequestContext,
  merchant: { apiKey: string; commerceAccount: string },
  label: string,
): Promise<{ id: string; created: string }> {
  const credentials = { terminal_id: `TERM-${randomBytes(3).toString("hex")}`, secret_key: randomBytes(18).toString("base64url"), currency: "EUR" };
  const connection = await api.post("/api/connections", {
    headers: apiHeaders(merchant.apiKey),
    data: { data: { type: "connection", attributes: { provider: "provider-b", kind: "h2h", label, mode: "test", credentials, constants: {} } } },
  });
  expect(connection.status()).toBe(201);
  const attributes = {
    service: "payment_card_eur_hpp",
    commerce_account: merchant.commerceAccount,
    currency: "EUR",
    amount: "10.00",
    reference_id: `eur-${randomBytes(6).toString("hex")}`,
    flow: "charge",
    test_mode: true,
  };
  const created = await api.post("/api/commerce/payment-invoices", {
    headers: apiHeaders(merchant.apiKey),
    data: { data: { type: "payment-invoice", attributes } },
  });
  expect(created.status()).toBe(201);
  const data = (await created.json()).data;
  return { id: data.id as string, created: data.attributes.created as string };
}

export function uniqueLabel(prefix: string) {
  return `${prefix} ${randomBytes(3).toString("hex")}`;
}

/** Opens the provider's overview page, presses Connect and picks the kind. */
export async function openConnectForm(page: Page, provider: string, kind: "Provider account" | "H2H merchant account") {
  await page.goto(`/providers/${provider}`);
  await page.getByRole("button", { name: "Connect" }).click();
  await page.getByRole("radio", { name: new RegExp(`^${kind}`) }).check();
  const form = page.getByRole("form", { name: `New ${kind}` });
  await expect(form).toBeVisible();
  // The form loads when used: live before a spec chooses files or types into it.
  await liveControl(form.getByRole("textbox").first());
  return form;
}

export function textbox(page: Page, name: string) {
  return page.getByRole("textbox", { name: new RegExp(`^${name}( \\*)?$`) });
}

/** `timeout`: how long the file's text may take to show, e.g. while `next dev` compiles the form's script. */
export async function uploadKey(page: Page, label: string, fileName: string, text: string, timeout?: number) {
  await page.getByLabel(`Upload ${label} file`).setInputFiles(pemFile(fileName, text));
  await expect(textbox(page, label)).toHaveValue(text, { timeout });
}

export async function save(page: Page) {
  await page.getByRole("button", { name: "Save connection" }).click();
}

export async function expectSaved(page: Page, label: string) {
  await expect(page).toHaveURL(/\/connections\/conn_/);
  await expect(page.getByRole("heading", { level: 1, name: label })).toBeVisible();
}

export function fKeys(family: "dev" | "prod") {
  return { publicKey: `${family}_pub_${randomUUID()}`, secretKey: `${family}_sec_${randomBytes(24).toString("base64url")}` };
}

export function fieldError(page: Page, id: string) {
  return page.locator(`#${id}-error`);
}
