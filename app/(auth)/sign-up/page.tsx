import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { getViewer } from "@/lib/auth/viewer";
import { outboxPageEnabled } from "@/lib/mail/config";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage() {
  if (await getViewer()) redirect("/");
  return (
    <>
      <h1 className="mb-1 text-xl font-semibold">Create your merchant account</h1>
      <p className="mb-4 text-sm text-slate-600">You become its owner and can invite your team later.</p>
      <SignUpForm outbox={outboxPageEnabled()} />
    </>
  );
}
