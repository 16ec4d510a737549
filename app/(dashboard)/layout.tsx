import type { ReactNode } from "react";
import { Sidebar } from "@/components/shell/sidebar";
import { ViewModeBar } from "@/components/shell/view-mode-bar";
import { Toaster } from "@/components/feedback/toaster";
import { signOutAction } from "@/lib/actions/auth";
import { MFA_ENROLMENT_PATH, requirePageViewer } from "@/lib/auth/viewer";
import { mustEnrolMfa } from "@/lib/identity/membership";
import { maySee, navigationFor } from "@/lib/auth/permissions";
import { ROLE_NAMES } from "@/lib/identity/permissions";
import { SearchBox } from "@/components/shell/search-box";
import { getViewMode } from "@/lib/dashboard/view-mode-cookie";
import { getDb } from "@/lib/db/client";
import { countDisputesNeedingResponse } from "@/lib/disputes/list";
import { countOpenAlerts } from "@/lib/alerts/read";
import { AlertsBell } from "@/components/shell/alerts-bell";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  // The two-factor page is open to an owner who must still enrol; every other page sends them there.
  const viewer = await requirePageViewer(undefined, { allowWithoutMfa: true });
  const mode = await getViewMode();
  const navigation = mustEnrolMfa(viewer) ? [{ href: MFA_ENROLMENT_PATH, label: "Two-factor authentication" }] : navigationFor(viewer.user.role);
  // Disputes shows how many of the view's disputes need a response (one count on an index).
  const needingResponse = navigation.some((item) => item.href === "/disputes")
    ? await countDisputesNeedingResponse(await getDb(), viewer.merchant.id, mode)
    : 0;
  // The bell counts the view's open alerts (one count on the open-alert index), for whoever may see them.
  const showBell = !mustEnrolMfa(viewer) && maySee("/alerts", viewer.user.role);
  const openAlerts = showBell ? await countOpenAlerts(await getDb(), viewer.merchant.id, mode) : 0;
  const items = navigation.map((item) =>
    item.href === "/disputes" ? { ...item, count: { value: needingResponse, words: `need${needingResponse === 1 ? "s" : ""} a response` } } : item,
  );
  const footer = (
    <div className="space-y-2 text-sm">
      <div>
        <p className="font-medium text-slate-900" data-testid="viewer-name">
          {viewer.user.name}
        </p>
        <p className="text-slate-600">{viewer.user.email}</p>
        <p className="text-slate-600">
          <span data-testid="viewer-merchant">{viewer.merchant.name}</span> ·{" "}
          <span className="badge bg-slate-100 text-slate-700" data-testid="viewer-role">
            {ROLE_NAMES[viewer.user.role]}
          </span>
        </p>
      </div>
      <form action={signOutAction}>
        <button type="submit" className="btn-secondary w-full">
          Sign out
        </button>
      </form>
    </div>
  );
  return (
    <div className="md:flex">
      <Sidebar items={items} footer={footer} />
      <div className="min-w-0 flex-1">
        <ViewModeBar mode={mode} />
        {!mustEnrolMfa(viewer) && (showBell || maySee("/invoices", viewer.user.role)) ? (
          <div className="flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-2 md:px-8">
            <div className="min-w-0 flex-1">{maySee("/invoices", viewer.user.role) ? <SearchBox /> : null}</div>
            {showBell ? <AlertsBell open={openAlerts} /> : null}
          </div>
        ) : null}
        <main id="main" className="px-4 py-6 md:px-8">
          {children}
        </main>
      </div>
      <Toaster />
    </div>
  );
}
