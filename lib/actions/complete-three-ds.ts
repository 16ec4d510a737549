"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/lib/db/client";
import { publicBaseUrl } from "@/lib/config";
import { answerThreeDs } from "@/lib/sandbox/three-ds";

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/**
 * Pass / Fail on the sandbox's 3-D Secure page (no session: the customer of a test invoice).
 * The return URL is checked again here, whatever the page showed: only this server's own.
 */
export async function completeThreeDsAction(form: FormData): Promise<void> {
  const provider = field(form, "provider");
  const reference = field(form, "reference");
  const result = await answerThreeDs(
    await getDb(),
    { provider, reference, answer: field(form, "answer"), returnUrl: field(form, "return") },
    publicBaseUrl(),
  );
  redirect(result.ok ? result.redirectTo : `/sandbox/3ds/${encodeURIComponent(provider)}/${encodeURIComponent(reference)}`);
}
