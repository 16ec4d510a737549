import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ConfirmSignUpForm } from "@/components/auth/confirm-sign-up-form";
import { isSignUpBrowser } from "@/lib/auth/signup-browser";
import { openSignUp } from "@/lib/auth/signup-link";
import { getViewer } from "@/lib/auth/viewer";
import { InvalidLink } from "../../../invalid-link";

export const metadata: Metadata = { title: "Finish creating your account", referrer: "no-referrer" };

/**
 * The link a sign-up mails. Opening it changes nothing (mail scanners open links too): the account
 * is created when the person presses the button (a POST), in the browser that signed up at once,
 * elsewhere after typing the password they chose (lib/auth/signup-browser.ts).
 */
export default async function ConfirmSignUpPage({ params }: { params: Promise<{ token: string }> }) {
  if (await getViewer()) redirect("/");
  const { token } = await params;
  const pending = openSignUp(token);
  if (!pending) return <InvalidLink title="Sign-up link not valid" next={{ href: "/sign-up", label: "Sign up again" }} />;
  const sameBrowser = await isSignUpBrowser(pending.browser);
  return (
    <>
      <h1 className="mb-2 text-xl font-semibold">Finish creating your account</h1>
      <p className="mb-4 text-sm text-slate-600">
        {pending.merchantName} (commerce account {pending.commerceAccount}), owner {pending.email}.{" "}
        {sameBrowser
          ? "Press the button to create it; you are signed in at once."
          : "This is not the browser you signed up in (or it was long ago): type the password you chose to create it."}
      </p>
      <ConfirmSignUpForm token={token} email={pending.email} sameBrowser={sameBrowser} />
    </>
  );
}
