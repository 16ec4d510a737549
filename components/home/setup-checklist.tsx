import { Link } from "@/components/link";
import type { SetupChecklist as Checklist, SetupStep } from "@/lib/dashboard/home";
import { SETUP_STEPS } from "@/lib/dashboard/home";
import { allows, rolesAllowing, type Permission, type Role } from "@/lib/identity/permissions";
import type { Mode } from "@/lib/providers";

type StepText = { title: string; how: string; href: string; action: string; needs: Permission; liveHow?: string };

/**
 * Each step says where it is done and what the permission table must allow to do it there
 * (lib/identity/permissions.ts): a role without it gets no link that would lead to /forbidden. Link names
 * never repeat a navigation label ("Settings", "Invoices"…), so each name finds one link.
 */
const STEPS: Record<SetupStep, StepText> = {
  connected: {
    title: "Connect a provider",
    how: "Pick a provider and save its test credentials.",
    liveHow: "In the Live view this counts live connections: pick a provider and save its live credentials.",
    href: "/providers",
    action: "Connect a provider",
    needs: "connections.write",
  },
  tested: {
    title: "Test the connection",
    how: "Press Test connection before saving a new connection, or on a saved one: it checks the provider is reachable and accepts the credentials.",
    href: "/connections",
    action: "Test a connection",
    needs: "connections.write",
  },
  apiKey: {
    title: "Create an API key",
    how: "Your shop sends invoices with it.",
    liveHow: "In the Live view this counts live keys (pok_live_…): your shop sends live invoices with one.",
    href: "/api-keys",
    action: "Create an API key",
    needs: "keys.manage",
  },
  paidTestInvoice: {
    title: "Send a test invoice and pay it on the hosted page",
    how: "Compose a test payment, open its hosted page and pay with the test card marked “Succeeds”: the page lists the test cards.",
    href: "/invoices/new",
    action: "Compose a test invoice",
    needs: "invoices.compose",
  },
  webhook: {
    title: "Add a webhook endpoint",
    how: "Where we tell your shop that an invoice changed status.",
    href: "/webhooks",
    action: "Add a webhook endpoint",
    needs: "webhooks.manage",
  },
};

/** Ticked from the merchant's data (lib/dashboard/home.ts); the text says done or to do, the colour only repeats it. */
export function SetupChecklist({ checklist, role, mode }: { checklist: Checklist; role: Role; mode: Mode }) {
  const done = SETUP_STEPS.filter((step) => checklist[step]).length;
  return (
    <section className="card" aria-labelledby="setup-heading">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="setup-heading" className="text-base font-semibold">
          Set up your account
        </h2>
        <p className="text-sm text-slate-600" data-testid="setup-progress">
          {done} of {SETUP_STEPS.length} steps done
        </p>
      </div>
      <ol className="mt-4 space-y-3">
        {SETUP_STEPS.map((step, index) => {
          const text = STEPS[step];
          const ticked = checklist[step];
          const canDo = allows(role, text.needs);
          return (
            <li
              key={step}
              data-testid={`setup-step-${step}`}
              className={`flex gap-3 rounded-md border p-3 ${ticked ? "border-green-200 bg-green-50" : "border-slate-200"}`}
            >
              <span
                aria-hidden="true"
                className={`mt-0.5 flex h-6 w-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold ${
                  ticked ? "bg-green-700 text-white" : "border border-slate-400 text-slate-700"
                }`}
              >
                {ticked ? "✓" : index + 1}
              </span>
              <div className="min-w-0 flex-1">
                <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                  <span>{text.title}</span>
                  <span className={`badge ${ticked ? "bg-green-100 text-green-800" : "bg-slate-100 text-slate-700"}`}>{ticked ? "Done" : "To do"}</span>
                </p>
                <p className="mt-0.5 text-sm text-slate-600">{mode === "live" ? (text.liveHow ?? text.how) : text.how}</p>
                {canDo ? (
                  <Link href={text.href} className="mt-1 inline-block text-sm font-medium text-brand-700 underline underline-offset-4">
                    {text.action}
                  </Link>
                ) : (
                  <p className="mt-1 text-sm text-slate-600">A member with the {rolesAllowing(text.needs)} role does this step.</p>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
