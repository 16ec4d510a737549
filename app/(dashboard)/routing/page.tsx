import type { Metadata } from "next";
import { Link } from "@/components/link";
import type { RoutingOrderView } from "@/components/routing/routing-order-editor";
import { RoutingHistoryOnUse, RoutingOrderEditorOnUse, RoutingSimulatorOnUse, SuccessSettingsFormOnUse } from "@/components/routing/routing-on-use";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getRoutingOrdersInView } from "@/lib/dashboard/routing";
import { getViewMode } from "@/lib/dashboard/view-mode-cookie";
import { getDb } from "@/lib/db/client";
import { timeZoneInForce } from "@/lib/time-zones";
import { formatDateTime } from "@/lib/format";
import type { RoutingOrder } from "@/lib/routing/orders";
import { getRoutingHistory } from "@/lib/routing/versions";
import { DEFAULT_SUCCESS_SETTINGS } from "@/lib/routing/success";
import { getSuccessSettings, toSettingsAttributes } from "@/lib/routing/success-stats";
import { can, canInMode } from "@/lib/identity/permissions";

export const metadata: Metadata = { title: "Routing" };

function updatedText(order: RoutingOrder, zone: string): string {
  if (!order.updatedAt) return "Never saved: oldest connection first.";
  return `Saved ${formatDateTime(order.updatedAt, zone)}${order.updatedBy ? ` by ${order.updatedBy}` : ""}.`;
}

/**
 * A list remounts when its connections change (one added, enabled or disabled). A newer saved order
 * or rules (this page's own save, a rollback) is adopted by the editors in place: a remount would
 * wipe the status line that says the save worked (it once raced the save's refresh).
 */
function editorKey(order: RoutingOrder): string {
  const members = order.connections.map((c) => `${c.connectionId}${c.enabled ? "+" : "-"}`).sort();
  return `${order.id}|${members.join(",")}`;
}

/**
 * For each service and mode, where new invoices go and in
 * which order the others are tried. Who may change it in each mode is the permission table's
 * routing.write (lib/identity/permissions.ts); everyone else sees it read-only.
 */
export default async function RoutingPage() {
  const viewer = await requirePageViewer();
  const zone = timeZoneInForce(viewer);
  const mode = await getViewMode();
  // Per mode, from the permission table: developers change test routing, owners both.
  const editable = canInMode(viewer.user.role, "routing.write", mode);
  const settingsEditable = can(viewer.user.role, "routing.write.live");
  const owner = can(viewer.user.role, "settings.write");
  const db = await getDb();
  const orders = await getRoutingOrdersInView(db, viewer.merchant.id, mode);
  const histories = await Promise.all(orders.map((order) => getRoutingHistory(db, viewer.merchant.id, order)));
  const successSettings = toSettingsAttributes((await getSuccessSettings(db, viewer.merchant.id)) ?? DEFAULT_SUCCESS_SETTINGS);
  return (
    <>
      <PageHeader
        title="Routing"
        description={
          <>
            For each service and mode, rules you set are checked first, in order: the first that applies (by amount, customer country, card brand or issuing
            country) sends the invoice down its own list or splits invoices by percentage. When none applies, the default rule does: the first enabled
            connection takes new invoices; if it fails softly, the next ones are tried in this order. Disabled connections keep their place and are skipped. New
            connections join at the end. Test invoices can name a connection instead (the composer does when you choose one)
            {owner ? (
              <>
                ; live ones only if you{" "}
                <Link href="/settings" className="text-brand-700 underline">
                  allow pinning live invoices
                </Link>
                .
              </>
            ) : editable ? (
              "."
            ) : mode === "live" ? (
              ". Only owners change live routing."
            ) : (
              ". Owners and developers change test routing."
            )}
          </>
        }
      />
      {orders.length === 0 ? (
        <section className="card max-w-xl">
          <h2 className="text-base font-semibold">Nothing to route yet</h2>
          <p className="mt-1 text-sm text-slate-600">
            {can(viewer.user.role, "connections.write") ? (
              <>
                <Link href="/providers" className="text-brand-700 underline">
                  Connect a provider
                </Link>{" "}
                first: each service it offers gets a routing order here.
              </>
            ) : (
              "Your merchant has no connections yet. Ask an owner to connect a provider."
            )}
          </p>
        </section>
      ) : (
        <>
          <RoutingSimulatorOnUse scopes={orders.map((order) => ({ id: order.id, service: order.service, mode: order.mode, currency: order.currency }))} />
          <div className="grid gap-6 2xl:grid-cols-2">
            {orders.map((order, index) => {
              const view: RoutingOrderView = { ...order, updatedAt: order.updatedAt?.toISOString() ?? null };
              return (
                <div key={order.id} className="min-w-0 space-y-3">
                  <RoutingOrderEditorOnUse key={editorKey(order)} order={view} editable={editable} updatedText={updatedText(order, zone)} />
                  <RoutingHistoryOnUse
                    service={order.service}
                    mode={order.mode}
                    history={histories[index]!}
                    timeZone={zone}
                    editable={editable}
                    domId={`history-${order.id.replace(/[^a-z0-9_-]/gi, "-")}`}
                  />
                </div>
              );
            })}
          </div>
          <SuccessSettingsFormOnUse settings={successSettings} readOnly={!settingsEditable} />
        </>
      )}
    </>
  );
}
