import type { Metadata } from "next";
import { PageHeader } from "@/components/shell/page-header";
import { AddMemberForm } from "@/components/team/add-member-form";
import { MemberActions } from "@/components/team/member-actions";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format";
import { listMembers } from "@/lib/merchants/team";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage() {
  const viewer = await requirePageViewer("owner");
  const members = await listMembers(await getDb(), viewer.merchant.id);
  return (
    <>
      <PageHeader title="Team" description="Owners manage everything. Support members read invoices and compose test invoices." />
      <section className="card mb-6 overflow-x-auto" aria-labelledby="members">
        <h2 id="members" className="mb-3 text-base font-semibold">Members</h2>
        <table className="w-full text-left text-sm">
          <thead className="text-slate-600">
            <tr>
              <th className="py-2 pr-4 font-medium">Name</th>
              <th className="py-2 pr-4 font-medium">E-mail</th>
              <th className="py-2 pr-4 font-medium">Role</th>
              <th className="py-2 pr-4 font-medium">Added</th>
              <th className="py-2 font-medium"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {members.map((m) => (
              <tr key={m.id} className="border-t border-slate-100">
                <td className="py-2 pr-4">{m.name}{m.id === viewer.user.id ? " (you)" : ""}</td>
                <td className="py-2 pr-4">{m.email}</td>
                <td className="py-2 pr-4"><span className="badge bg-slate-100 text-slate-700">{m.role}</span></td>
                <td className="py-2 pr-4">{formatDateTime(m.createdAt)}</td>
                <td className="py-2">{m.id === viewer.user.id ? null : <MemberActions userId={m.id} name={m.name} role={m.role} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section className="card" aria-labelledby="add-member">
        <h2 id="add-member" className="mb-3 text-base font-semibold">Add a member</h2>
        <AddMemberForm />
      </section>
    </>
  );
}
