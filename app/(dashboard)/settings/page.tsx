import type { Metadata } from "next";
import { Link } from "@/components/link";
import type { ReactNode } from "react";
import { BusinessNameForm } from "@/components/account/business-name-form";
import { ChangePasswordForm } from "@/components/account/change-password-form";
import { RequireOwnerMfaForm } from "@/components/mfa/require-owner-mfa-form";
import { AllowLivePinsForm } from "@/components/routing/allow-live-pins-form";
import { InvoiceLifetimeForm } from "@/components/settings/invoice-lifetime-form";
import { PersonTimeZoneForm } from "@/components/settings/person-time-zone-form";
import { TimeZoneForm } from "@/components/settings/time-zone-form";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getDb } from "@/lib/db/client";
import { timeZoneInForce } from "@/lib/time-zones";
import { formatDateTime } from "@/lib/format";
import { getInvoiceLifetime, getMerchantTimeZone } from "@/lib/merchants/settings";
import { listTimeZones } from "@/lib/time-zones";
import { mfaStatus } from "@/lib/identity/mfa/service";
import { can, ROLE_NAMES } from "@/lib/identity/permissions";

export const metadata: Metadata = { title: "Settings" };

type Fact = [label: string, value: string, code?: boolean];

export default async function SettingsPage() {
  const { user, merchant } = await requirePageViewer();
  const zone = timeZoneInForce({ user, merchant });
  const isOwner = can(user.role, "settings.write");
  const db = await getDb();
  const [lifetime, mfa, timeZone] = await Promise.all([getInvoiceLifetime(db, merchant.id), mfaStatus(db, user.id), getMerchantTimeZone(db, merchant.id)]);
  // [label, value, an identifier (monospace, broken anywhere) rather than words]
  const rows: Fact[] = [
    ["Business name", merchant.name],
    ["Commerce account", merchant.commerceAccount, true],
    ["Merchant id", merchant.id, true],
    ["Created", formatDateTime(merchant.createdAt, zone)],
  ];
  const you: Fact[] = [
    ["Name", user.name],
    ["E-mail", user.email, true],
    ["Role", ROLE_NAMES[user.role]],
    ["Two-factor", mfa.enabled ? "On" : "Off"],
  ];
  return (
    <>
      <PageHeader title="Settings" description="Your merchant account and your own profile." />
      <div className="grid gap-6 md:grid-cols-2">
        {/* Owners rename the business under Merchant; everyone changes their own password under You. */}
        {(
          [
            ["Merchant", rows, isOwner ? <BusinessNameForm key="business" merchantName={merchant.name} /> : null],
            [
              "You",
              you,
              <div key="you">
                <section className="mt-4 border-t border-slate-100 pt-4" aria-labelledby="two-factor">
                  <h3 id="two-factor" className="mb-2 text-sm font-semibold">
                    Two-factor authentication
                  </h3>
                  <p className="mb-3 text-sm text-slate-700">
                    {mfa.enabled
                      ? `On: signing in asks for a code from your app. ${mfa.recoveryCodesLeft} recovery codes left.`
                      : "Off: signing in asks only for your password."}
                  </p>
                  <Link href="/settings/two-factor" className="btn-secondary">
                    {mfa.enabled ? "Manage two-factor authentication" : "Set up two-factor authentication"}
                  </Link>
                </section>
                <section className="mt-4 border-t border-slate-100 pt-4" aria-labelledby="person-time-zone-heading">
                  <h3 id="person-time-zone-heading" className="mb-3 text-sm font-semibold">
                    Time zone
                  </h3>
                  <PersonTimeZoneForm timeZone={user.timeZone ?? ""} merchantZone={timeZone} zones={listTimeZones()} />
                </section>
                <section className="mt-4 border-t border-slate-100 pt-4" aria-labelledby="change-password">
                  <h3 id="change-password" className="mb-3 text-sm font-semibold">
                    Change password
                  </h3>
                  <ChangePasswordForm />
                </section>
              </div>,
            ],
          ] as [string, Fact[], ReactNode][]
        ).map(([title, items, extra]) => (
          <section key={title} className="card" aria-label={title}>
            <h2 className="mb-3 text-base font-semibold">{title}</h2>
            <dl className="grid grid-cols-[10rem_1fr] gap-y-2 text-sm">
              {items.map(([k, v, code]) => (
                <div key={k} className="contents">
                  <dt className="text-slate-600">{k}</dt>
                  <dd className={code ? "font-mono text-slate-900 break-all" : "text-slate-900 [overflow-wrap:anywhere]"}>{v}</dd>
                </div>
              ))}
            </dl>
            {extra}
          </section>
        ))}
      </div>
      <section className="card mt-6 max-w-3xl" aria-labelledby="routing-settings">
        <h2 id="routing-settings" className="mb-3 text-base font-semibold">
          Routing
        </h2>
        {isOwner ? (
          <AllowLivePinsForm allowLivePins={merchant.allowLivePins} />
        ) : (
          <p className="text-sm text-slate-700" data-testid="allow-live-pins">
            Pinning live invoices to a connection is {merchant.allowLivePins ? "allowed" : "not allowed"}; an owner can change this.
          </p>
        )}
        <p className="mt-3 text-sm text-slate-600">
          The order connections take invoices in is on the{" "}
          <Link href="/routing" className="text-brand-700 underline">
            Routing
          </Link>{" "}
          page.
        </p>
      </section>
      <section className="card mt-6 max-w-3xl" aria-labelledby="security-settings">
        <h2 id="security-settings" className="mb-3 text-base font-semibold">
          Security
        </h2>
        {isOwner ? (
          <RequireOwnerMfaForm requireOwnerMfa={merchant.requireOwnerMfa} />
        ) : (
          <p className="text-sm text-slate-700" data-testid="require-owner-mfa">
            Two-factor authentication is {merchant.requireOwnerMfa ? "required" : "not required"} for owners; an owner can change this.
          </p>
        )}
      </section>
      {/* One card per setting group, each with its own heading; add new groups below. */}
      <section className="card mt-6 max-w-3xl" aria-labelledby="invoice-settings">
        <h2 id="invoice-settings" className="mb-3 text-base font-semibold">
          Invoices
        </h2>
        <InvoiceLifetimeForm lifetimeMinutes={lifetime?.lifetimeMinutes ?? 30} readOnly={!isOwner} />
        <div className="mt-4 border-t border-slate-100 pt-4">
          <TimeZoneForm timeZone={timeZone} zones={listTimeZones()} readOnly={!isOwner} />
        </div>
      </section>
      <section className="card mt-6 max-w-3xl" aria-labelledby="webhook-settings">
        <h2 id="webhook-settings" className="mb-3 text-base font-semibold">
          Webhooks
        </h2>
        <p className="text-sm text-slate-700">
          Endpoints, their signing secrets and the event log are on the{" "}
          <Link href="/webhooks" className="text-brand-700 underline">
            Webhooks
          </Link>{" "}
          page.
        </p>
      </section>
    </>
  );
}
