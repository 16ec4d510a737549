import type { Metadata } from "next";
import { SetPasswordForm } from "@/components/account/set-password-form";
import { getDb } from "@/lib/db/client";
import { findPasswordReset } from "@/lib/identity/account";
import { InvalidLink } from "../../invalid-link";

export const metadata: Metadata = { title: "Reset password", referrer: "no-referrer" };

export default async function ResetPasswordPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const reset = await findPasswordReset(await getDb(), token);
  if (!reset) return <InvalidLink title="Reset link not valid" next={{ href: "/forgot-password", label: "Ask for a new link" }} />;
  return (
    <>
      <h1 className="mb-2 text-xl font-semibold">Choose a new password</h1>
      <p className="mb-4 text-sm text-slate-600">For {reset.email}.</p>
      <SetPasswordForm token={token} email={reset.email} />
    </>
  );
}
