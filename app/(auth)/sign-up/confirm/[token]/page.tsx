import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ConfirmSignUpForm } from "@/components/auth/confirm-sign-up-form";
import { openSignUp } from "@/lib/auth/signup-link";
import { getViewer } from "@/lib/auth/viewer";
import { InvalidLink } from "../../../invalid-link";

export const metadata: Metadata = { title: "Finish creating your account", referrer: "no-referrer" };

/**
 * The link a sign-up mails. Opening it changes nothing (mail scanners open links too):
 * the account is created when the person types the password they chose and presses the button.
 */
export default async function ConfirmSignUpPage({ params }: { params: Promise<{ token: string }> }) {
  if (await getViewer()) redirect("/");
  const { token } = await params;
  const pending = openSignUp(token);
  if (!pending) return <InvalidLink title="Sign-up link not valid" next={{ href: "/sign-up", label: "Sign up again" }} />;
  return (
    <>
      <h1 className="mb-2 text-xl font-semibold">Finish creating your account</h1>
      <p className="mb-4 text-sm text-slate-600">
        {pending.merchantName} (commerce account {pending.commerceAccount}), owner {pending.email}.
      </p>
      <ConfirmSignUpForm token={token} email={pending.email} />
    </>
  );
}
