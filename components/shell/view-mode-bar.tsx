import type { Mode } from "@/lib/providers";
import { ViewModeSwitch } from "./view-mode-switch";

/**
 * Above every dashboard page: which mode's data the pages show, and the switch. Test mode is
 * coloured (amber, as Stripe marks it) so test data is never mistaken for real money.
 */
export function ViewModeBar({ mode }: { mode: Mode }) {
  const test = mode === "test";
  return (
    <section
      aria-label="Data view"
      data-testid="view-mode-bar"
      data-mode={mode}
      className={`flex flex-wrap items-center justify-between gap-x-4 gap-y-2 border-b px-4 py-2 md:px-8 ${
        test ? "border-amber-500 bg-amber-100 text-amber-950" : "border-slate-200 bg-white text-slate-700"
      }`}
    >
      {test ? (
        <p className="text-sm font-semibold" data-testid="test-mode-banner">
          Test mode: showing test data
        </p>
      ) : (
        <p className="text-sm">Live data</p>
      )}
      <ViewModeSwitch mode={mode} />
    </section>
  );
}
