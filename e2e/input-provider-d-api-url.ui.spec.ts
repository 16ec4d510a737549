import { expect, test } from "@playwright/test";
import { signUp } from "./support/accounts";
import { expectSaved, openConnectForm, save, textbox, uniqueLabel } from "./support/connections";
import { screenshot } from "./support/screenshots";

/**
 * On a saved Provider D connection the edit form says that a new API
 * URL takes the API key and secret key again, refuses a new URL without them (naming both on their
 * fields), and refuses a live URL inside the operator's network.
 */
test("Provider D edit form: a changed API URL needs the secrets again; a private live URL is refused", async ({ page }) => {
  await signUp(page);
  const form = await openConnectForm(page, "provider-d", "H2H merchant account");
  const label = uniqueLabel("D live");
  await textbox(page, "Label").fill(label);
  await form.getByRole("radio", { name: "Live" }).check();
  await page.getByLabel("API key").fill("d-api-key-0001");
  await page.getByLabel("Secret key").fill("d-secret-key-0001");
  await textbox(page, "API URL").fill("https://93.184.216.34/v1");
  await textbox(page, "Merchant ID").fill("D-M-1");
  await textbox(page, "Service ID").fill("D-S-1");
  await save(page);
  await expectSaved(page, label);

  const edit = page.getByRole("form", { name: "Edit connection" });
  const apiUrl = edit.getByRole("textbox", { name: /^API URL/ });
  await expect(apiUrl).toHaveAccessibleDescription(/Changing it on a saved connection requires entering the API key and secret key again\./);
  await apiUrl.fill("https://93.184.216.35/v2");
  await edit.getByRole("button", { name: "Save changes" }).click();
  const summary = edit.getByTestId("error-summary");
  await expect(summary.getByRole("link")).toHaveText([/^Enter the API key again: the API URL changed/, /^Enter the Secret key again: the API URL changed/]);
  await expect(edit.getByLabel("API key")).toHaveAccessibleDescription(/Enter the API key again/);
  await screenshot(edit, "d-api-url-secrets");

  await edit.getByLabel("API key").fill("d-api-key-0002");
  await edit.getByLabel("Secret key").fill("d-secret-key-0002");
  await apiUrl.fill("https://169.254.169.254/latest");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(summary.getByRole("link")).toHaveText([/^API URL points to 169\.254\.169\.254, a private, loopback, link-local or reserved address/]);

  await edit.getByLabel("API key").fill("d-api-key-0002");
  await edit.getByLabel("Secret key").fill("d-secret-key-0002");
  await apiUrl.fill("https://93.184.216.35/v2");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(edit.getByText("Changes saved.")).toBeVisible();
  await expect(page.getByTestId("credential-api_url")).toHaveText("https://93.184.216.35/v2");
});
