import type { Metadata } from "next";
import { Link } from "@/components/link";
import { EnrolmentCodes } from "@/components/mfa/enrolment-codes";
import { MfaEnrolment } from "@/components/mfa/mfa-enrolment";
import { DisableMfaForm, RegenerateRecoveryCodesForm } from "@/components/mfa/mfa-manage";
import { PageHeader } from "@/components/shell/page-header";
import { requirePageViewer } from "@/lib/auth/viewer";
import { getDb } from "@/lib/db/client";
import { timeZoneInForce } from "@/lib/time-zones";
import { formatDateTime } from "@/lib/format";
import { mustEnrolMfa } from "@/lib/identity/membership";
import { mfaStatus } from "@/lib/identity/mfa/service";

export const metadata: Metadata = { title: "Two-factor authentication" };

/** Every member's own two-factor sign-in; the one page an owner who must enrol can open. */
export default async function TwoFactorPage() {
  const viewer = await requirePageViewer(undefined, { allowWithoutMfa: true });
  const zone = timeZoneInForce(viewer);
  const status = await mfaStatus(await getDb(), viewer.user.id);
  const required = mustEnrolMfa(viewer);
  const requiredForYou = viewer.user.role === "owner" && viewer.merchant.requireOwnerMfa;
  return (
    <>
      <PageHeader
        title="Two-factor authentication"
        description="After your password, signing in asks for a 6-digit code from an authenticator app on your phone, so a stolen password alone opens nothing."
      />
      {required ? (
        <p role="status" className="mb-6 max-w-3xl rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900" data-testid="mfa-required-notice">
          {viewer.merchant.name} requires two-factor authentication for owners. Set it up to continue to the dashboard.
        </p>
      ) : null}
      {/* Not `required`: it is false once the page renders again as "on", before the codes are read. */}
      <EnrolmentCodes afterDone={requiredForYou ? "/home" : "/settings/two-factor"}>
        {status.enabled ? (
          <div className="grid max-w-3xl gap-6">
            <section className="card" aria-labelledby="mfa-status">
              <h2 id="mfa-status" className="mb-2 text-base font-semibold">
                On
              </h2>
              <p className="text-sm text-slate-700" data-testid="mfa-status">
                Two-factor authentication is on since {status.enabledAt ? formatDateTime(status.enabledAt, zone) : "—"}. {status.recoveryCodesLeft} of 10
                recovery codes are unused.
              </p>
            </section>
            <section className="card" aria-labelledby="mfa-recovery">
              <h2 id="mfa-recovery" className="mb-3 text-base font-semibold">
                Recovery codes
              </h2>
              <RegenerateRecoveryCodesForm />
            </section>
            <section className="card" aria-labelledby="mfa-disable">
              <h2 id="mfa-disable" className="mb-3 text-base font-semibold">
                Turn off
              </h2>
              {requiredForYou ? (
                <p className="text-sm text-slate-700">
                  Your business requires two-factor authentication for owners, so it stays on. An owner can change that under Settings → Security.
                </p>
              ) : (
                <DisableMfaForm />
              )}
            </section>
          </div>
        ) : (
          <section className="card max-w-3xl" aria-labelledby="mfa-setup">
            <h2 id="mfa-setup" className="mb-3 text-base font-semibold">
              Set up
            </h2>
            <MfaEnrolment />
          </section>
        )}
      </EnrolmentCodes>
      {required ? null : (
        <p className="mt-6 text-sm">
          <Link href="/settings" className="text-brand-700 underline">
            Back to Settings
          </Link>
        </p>
      )}
    </>
  );
}
