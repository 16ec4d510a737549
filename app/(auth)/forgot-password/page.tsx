import type { Metadata } from "next";
import { ForgotPasswordForm } from "@/components/account/forgot-password-form";

export const metadata: Metadata = { title: "Forgot password" };

export default function ForgotPasswordPage() {
  return (
    <>
      <h1 className="mb-2 text-xl font-semibold">Forgot your password?</h1>
      <p className="mb-4 text-sm text-slate-600">Enter the e-mail you sign in with. We send a link to choose a new password.</p>
      <ForgotPasswordForm />
    </>
  );
}
