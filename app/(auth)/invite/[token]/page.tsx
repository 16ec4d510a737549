import type { Metadata } from "next";
import { AcceptInviteForm } from "@/components/account/accept-invite-form";
import { getDb } from "@/lib/db/client";
import { findOpenInvite } from "@/lib/merchants/invites";
import { InvalidLink } from "../../invalid-link";

export const metadata: Metadata = { title: "Join your team", referrer: "no-referrer" };

export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const invite = await findOpenInvite(await getDb(), token);
  if (!invite) return <InvalidLink title="Invitation not valid" next={{ href: "/sign-in", label: "Go to sign-in" }} />;
  return (
    <>
      <h1 className="mb-2 text-xl font-semibold">Join {invite.merchantName}</h1>
      <p className="mb-4 text-sm text-slate-600">
        You are invited as <strong>{invite.role}</strong>. Check your name and choose the password you will sign in with as {invite.email}; you are signed in
        when you join.
      </p>
      <AcceptInviteForm token={token} email={invite.email} name={invite.name} />
    </>
  );
}
