import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createApiKey, signUp } from "./support/accounts";
import { expectSaved, fKeys, openConnectForm, save, textbox, uniqueLabel } from "./support/connections";

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.isFile() ? [full] : [];
  });
}

function filesContaining(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle);
  return filesUnder(dir).filter((file) => fs.readFileSync(file).includes(bytes));
}

test("a saved secret appears in no page, RSC payload, action result or API response, and not in clear in the database files", async ({ page, request }) => {
  await signUp(page);
  const bodies: string[] = [];
  page.on("response", async (response) => {
    try {
      bodies.push(await response.text());
    } catch {
      // redirects and aborted requests have no body
    }
  });

  const keys = fKeys("dev");
  const label = uniqueLabel("Leak check");
  await openConnectForm(page, "provider-f", "H2H merchant account");
  await page.getByLabel("Label").fill(label);
  await textbox(page, "Public key").fill(keys.publicKey);
  await page.getByLabel("Secret key").fill(keys.secretKey);
  await save(page);
  await expectSaved(page, label);
  const connectionUrl = page.url();
  const edit = page.getByRole("form", { name: "Edit connection" });
  await edit.getByRole("textbox", { name: /^Label/ }).fill(`${label} edited`);
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByText("Changes saved.")).toBeVisible();

  for (const url of ["/connections", "/providers/provider-f", "/providers", connectionUrl]) {
    await page.goto(url);
    bodies.push(await page.content());
    const rsc = await page.request.get(url, { headers: { RSC: "1" } });
    bodies.push(await rsc.text());
  }
  const apiKey = await createApiKey(page);
  const auth = { Authorization: `Bearer ${apiKey}` };
  const list = await request.get("/api/connections", { headers: auth });
  expect(list.status()).toBe(200);
  const listed = await list.json();
  expect(listed.data).toHaveLength(1);
  const one = await request.get(`/api/connections/${listed.data[0].id}`, { headers: auth });
  bodies.push(JSON.stringify(listed), await one.text());
  expect((await one.json()).data.attributes.credentials.secret_key).toBe(`••••${keys.secretKey.slice(-4)}`);

  expect(bodies.length).toBeGreaterThan(10);
  const secretCore = keys.secretKey.slice(0, -4);
  for (const body of bodies) expect(body).not.toContain(secretCore);
  // The public key is not secret: seeing it proves the bodies were captured.
  expect(bodies.some((body) => body.includes(keys.publicKey))).toBe(true);

  // Committed rows reach PGlite's files (heap or WAL); the label does, the secret must not.
  const dbDir = path.join(process.env.E2E_DATA_DIR!, "pglite");
  await expect.poll(() => filesContaining(dbDir, label).length, { timeout: 15_000 }).toBeGreaterThan(0);
  expect(filesContaining(dbDir, secretCore)).toEqual([]);
});
