import type { Metadata } from "next";
import { Link } from "@/components/link";
import { PageHeader } from "@/components/shell/page-header";
import { InviteActions } from "@/components/team/invite-actions";
import { InviteMemberForm } from "@/components/team/invite-member-form";
import { MemberActions } from "@/components/team/member-actions";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getDb } from "@/lib/db/client";
import { timeZoneInForce } from "@/lib/time-zones";
import { formatDateTime } from "@/lib/format";
import { invitationDelivery } from "@/lib/mail/config";
import { listPendingInvites } from "@/lib/merchants/invites";
import { listMembers } from "@/lib/merchants/team";
import { describeRole, ROLE_NAMES, ROLE_ORDER } from "@/lib/identity/permissions";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage() {
  const viewer = await requirePageViewer("team.manage");
  const zone = timeZoneInForce(viewer);
  const db = await getDb();
  const [members, invites] = await Promise.all([listMembers(db, viewer.merchant.id), listPendingInvites(db, viewer.merchant.id)]);
  const now = new Date();
  const delivery = invitationDelivery();
  return (
    <>
      <PageHeader title="Team" description="Who works on this business, and what each role may do. Every page and action checks the same table." />
      <section className="card mb-6" aria-labelledby="roles">
        <h2 id="roles" className="mb-3 text-base font-semibold">
          Roles
        </h2>
        <dl className="grid gap-4 text-sm md:grid-cols-2 xl:grid-cols-3" data-testid="role-descriptions">
          {ROLE_ORDER.map((role) => {
            const { name, purpose, may } = describeRole(role);
            return (
              <div key={role} data-role={role}>
                <dt className="font-semibold">{name}</dt>
                <dd className="text-slate-700">
                  {purpose} May {may.join(", ")}.
                </dd>
              </div>
            );
          })}
        </dl>
      </section>
      {/* Below md: name (e-mail under it), role and the actions; the e-mail and date columns from md up. */}
      <section className="card relative mb-6 overflow-x-auto" aria-labelledby="members">
        <h2 id="members" className="mb-3 text-base font-semibold">
          Members
        </h2>
        <table className="w-full text-left text-sm">
          <thead className="text-slate-600">
            <tr>
              <th className="py-2 pr-2 font-medium md:pr-4">Name</th>
              <th className="hidden py-2 pr-4 font-medium md:table-cell">E-mail</th>
              <th className="py-2 pr-2 font-medium md:pr-4">Role</th>
              <th className="hidden py-2 pr-4 font-medium md:table-cell">Added</th>
              <th className="py-2 font-medium">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.id} className="border-t border-slate-100" data-testid="member-row">
                <td className="py-2 pr-2 break-words md:pr-4">
                  {m.name}
                  {m.id === viewer.user.id ? " (you)" : ""}
                  <span className="block text-xs break-all text-slate-600 md:hidden">{m.email}</span>
                </td>
                <td className="hidden py-2 pr-4 md:table-cell">{m.email}</td>
                <td className="py-2 pr-2 md:pr-4">
                  <span className="badge bg-slate-100 text-slate-700">{ROLE_NAMES[m.role]}</span>
                </td>
                <td className="hidden py-2 pr-4 md:table-cell">{formatDateTime(m.createdAt, zone)}</td>
                <td className="py-2">{m.id === viewer.user.id ? null : <MemberActions userId={m.id} name={m.name} role={m.role} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {invites.length ? (
        <section className="card relative mb-6 overflow-x-auto" aria-labelledby="pending-invites">
          <h2 id="pending-invites" className="mb-3 text-base font-semibold">
            Pending invitations
          </h2>
          <table className="w-full text-left text-sm">
            <thead className="text-slate-600">
              <tr>
                <th className="py-2 pr-2 font-medium md:pr-4">Name</th>
                <th className="hidden py-2 pr-4 font-medium md:table-cell">E-mail</th>
                <th className="py-2 pr-2 font-medium md:pr-4">Role</th>
                <th className="hidden py-2 pr-4 font-medium md:table-cell">Link valid until</th>
                <th className="py-2 font-medium">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {invites.map((invite) => (
                <tr key={invite.id} className="border-t border-slate-100" data-testid="pending-invite">
                  <td className="py-2 pr-2 break-words md:pr-4">
                    {invite.name}
                    <span className="block text-xs break-all text-slate-600 md:hidden">{invite.email}</span>
                  </td>
                  <td className="hidden py-2 pr-4 md:table-cell">{invite.email}</td>
                  <td className="py-2 pr-2 md:pr-4">
                    <span className="badge bg-slate-100 text-slate-700">{ROLE_NAMES[invite.role]}</span>
                  </td>
                  <td className="hidden py-2 pr-4 md:table-cell">
                    {invite.expiresAt > now ? formatDateTime(invite.expiresAt, zone) : <span className="badge bg-amber-100 text-amber-900">expired</span>}
                  </td>
                  <td className="py-2">
                    <InviteActions inviteId={invite.id} email={invite.email} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      <section className="card" aria-labelledby="invite-member">
        <h2 id="invite-member" className="mb-1 text-base font-semibold">
          Invite a member
        </h2>
        <p className="mb-3 text-sm text-slate-600" data-testid="invite-delivery">
          {delivery === "smtp" ? (
            "They receive an e-mail with a link to choose their own password."
          ) : delivery === "outbox_page" ? (
            <>
              No mail server is set up (SMTP_URL), so the e-mail with their link is not sent: it waits on the{" "}
              <Link href="/outbox" className="text-brand-700 underline">
                Outbox
              </Link>{" "}
              page, from where you pass the link on to them.
            </>
          ) : (
            "No mail server is set up (SMTP_URL), so the e-mail with their link is not sent: it is kept in the server's mail_outbox table until an operator sets SMTP_URL or passes the link on."
          )}
        </p>
        <InviteMemberForm />
      </section>
    </>
  );
}
