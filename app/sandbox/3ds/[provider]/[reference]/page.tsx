import { notFound } from "next/navigation";
import { completeThreeDsAction } from "@/lib/actions/complete-three-ds";
import { getDb } from "@/lib/db/client";
import { formatMinor } from "@/lib/money";
import { publicBaseUrl } from "@/lib/config";
import { findRecordByReference } from "@/lib/sandbox/records";
import { isAwaitingThreeDs, safeReturnUrl } from "@/lib/sandbox/three-ds";

export const dynamic = "force-dynamic";

type Props = { params: Promise<{ provider: string; reference: string }>; searchParams: Promise<{ return?: string | string[] }> };

/** The sandbox's 3-D Secure step (test card 4000 0000 0000 3220): the customer passes or fails it. */
export default async function ThreeDsPage({ params, searchParams }: Props) {
  const { provider, reference } = await params;
  const { return: asked } = await searchParams;
  const record = await findRecordByReference(await getDb(), provider, reference);
  if (!record) notFound();
  const returnUrl = safeReturnUrl(typeof asked === "string" ? asked : undefined, publicBaseUrl());
  const amount = record.amountMinor !== null && record.currency ? `${formatMinor(record.amountMinor, record.currency)} ${record.currency}` : null;

  return (
    <div className="space-y-4">
      <h1 className="text-xl font-semibold">Confirm your payment</h1>
      <p className="text-sm text-slate-700">
        Sandbox 3-D Secure check
        {amount ? (
          <>
            {" "}
            for <strong>{amount}</strong>
          </>
        ) : null}
        . Choose whether the cardholder passes it.
      </p>
      {!returnUrl ? (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          This link has no valid return address, so the check cannot be answered here.
        </p>
      ) : isAwaitingThreeDs(record) ? (
        <form action={completeThreeDsAction} className="flex gap-3">
          <input type="hidden" name="provider" value={provider} />
          <input type="hidden" name="reference" value={reference} />
          <input type="hidden" name="return" value={returnUrl} />
          <button type="submit" name="answer" value="pass" className="btn-primary flex-1 py-3">
            Pass
          </button>
          <button type="submit" name="answer" value="fail" className="btn-danger flex-1 py-3">
            Fail
          </button>
        </form>
      ) : (
        <div className="space-y-3">
          <p className="text-sm">This check has been answered already ({record.details.threeDs === "failed" ? "failed" : "passed"}).</p>
          <a href={returnUrl} className="btn-secondary">
            Continue
          </a>
        </div>
      )}
    </div>
  );
}
