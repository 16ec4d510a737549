"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { publicBaseUrl } from "@/lib/config";
import { answerThreeDs } from "@/lib/sandbox/three-ds";

// The page posts a form; a crafted call to the action may send anything else, which answers nothing.
const field = (form: unknown, name: string) => {
  const value = form instanceof FormData ? form.get(name) : null;
  return typeof value === "string" ? value : "";
};

/**
 * Pass / Fail on the sandbox's 3-D Secure page (no session: the customer of a test invoice).
 * The return URL is checked again here, whatever the page showed: only this server's own.
 */
export async function completeThreeDsAction(form: FormData): Promise<void> {
  const provider = field(form, "provider");
  const reference = field(form, "reference");
  if (!provider || !reference) redirect("/");
  const result = await answerThreeDs(await getDb(), { provider, reference, answer: field(form, "answer"), returnUrl: field(form, "return") }, publicBaseUrl());
  redirect(result.ok ? result.redirectTo : `/sandbox/3ds/${encodeURIComponent(provider)}/${encodeURIComponent(reference)}`);
}
