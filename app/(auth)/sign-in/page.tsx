import type { Metadata } from "next";
import { Link } from "@/components/link";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth/sign-in-form";
import { getViewer } from "@/lib/auth/viewer";

export const metadata: Metadata = { title: "Sign in" };

/** Shown after an e-mailed link did its work (reset, invitation): the person signs in next. */
const NOTICES: Record<string, string> = {
  "password-reset": "Your password is changed. Sign in with the new one.",
  "invite-accepted": "Your password is set. Sign in to join your team.",
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string; notice?: string }> }) {
  if (await getViewer()) redirect("/");
  const { next, notice } = await searchParams;
  const noticeText = notice ? NOTICES[notice] : undefined;
  return (
    <>
      <h1 className="mb-4 text-xl font-semibold">Sign in</h1>
      <p role="status" className={noticeText ? "mb-4 rounded-md border border-green-200 bg-green-50 p-3 text-sm text-green-900" : "sr-only"}>
        {noticeText}
      </p>
      <SignInForm next={next} />
      <p className="mt-4 text-sm">
        <Link className="font-medium text-brand-700 underline" href="/forgot-password">
          Forgot password?
        </Link>
      </p>
    </>
  );
}
