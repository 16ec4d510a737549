"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, useTransition } from "react";
import { notify } from "@/components/feedback";
import { FormAlert, SubmitButton } from "@/components/forms/field";
import { compareRoutingVersionsAction, olderRoutingVersionsAction, rollbackRoutingAction } from "@/lib/actions/routing";
import { formatDateTime, formatRelative } from "@/lib/format";
import type { RoutingHistoryView } from "@/lib/routing/versions";
import { ROUTING_REPLACED_EVENT } from "./replaced-event";

type Comparison = NonNullable<RoutingHistoryView["comparison"]>;
type Version = RoutingHistoryView["versions"][number];

/** A moment as relative words, the exact time in the zone in force in the title (as the API keys page shows last use). */
function When({ at, zone }: { at: string; zone: string }) {
  return (
    // Relative to the moment it is drawn: server and browser may differ by a minute.
    <time dateTime={at} title={formatDateTime(at, zone)} suppressHydrationWarning>
      {formatRelative(at)}
    </time>
  );
}

function ChangeList({ comparison, testId }: { comparison: Comparison; testId: string }) {
  return (
    <div data-testid={testId}>
      {comparison.changes.length === 0 ? (
        <p className="text-sm text-slate-700">
          Versions {comparison.from} and {comparison.to} route the same way.
        </p>
      ) : (
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-800">
          {comparison.changes.map((sentence, index) => (
            <li key={index}>{sentence}</li>
          ))}
        </ul>
      )}
      {comparison.notes.length ? (
        <ul className="mt-2 space-y-1 text-sm text-amber-900">
          {comparison.notes.map((sentence, index) => (
            <li key={index}>{sentence}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * The versions of one service's routing in one mode: each save with its number, author, time and
 * what it changed; two versions compared as sentences (the latest and the one before it at
 * first); owners roll back to a version after a confirmation that says what will change. Support
 * members see the history without the rollback (the action checks the role too).
 */
export function RoutingHistory({
  service,
  mode,
  history,
  editable,
  domId,
  timeZone,
}: {
  service: string;
  mode: "test" | "live";
  history: RoutingHistoryView;
  editable: boolean;
  domId: string;
  /** The zone in force for the viewer (lib/time-zones.ts), from the server. */
  timeZone: string;
}) {
  const router = useRouter();
  const [comparison, setComparison] = useState<Comparison | null>(history.comparison);
  const [from, setFrom] = useState(String(history.comparison?.from ?? history.versions[1]?.version ?? ""));
  const [to, setTo] = useState(String(history.comparison?.to ?? history.versions[0]?.version ?? ""));
  const [compareErrors, setCompareErrors] = useState<Record<string, string>>({});
  const [compareAlert, setCompareAlert] = useState<string>();
  const [comparing, startCompare] = useTransition();
  const [confirming, setConfirming] = useState<Version>();
  const [rollbackAlert, setRollbackAlert] = useState<string>();
  const [rolling, startRollback] = useTransition();
  const [status, setStatus] = useState("");
  const statusRef = useRef<HTMLParagraphElement>(null);
  // "Show older versions": pages before the oldest shown, appended below the server's first page.
  const [older, setOlder] = useState<Version[]>([]);
  const [olderBefore, setOlderBefore] = useState(history.olderBefore);
  const [olderAlert, setOlderAlert] = useState<string>();
  const [loadingOlder, startOlder] = useTransition();
  // The first version a "Show older versions" loaded takes the focus once it is on the page (the button may be gone).
  const focusVersion = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (focusVersion.current === undefined) return;
    document.getElementById(`${domId}-version-${focusVersion.current}`)?.focus();
    focusVersion.current = undefined;
  }, [older, domId]);
  // A new version (a save above, a rollback here): compare it with the one before, as on first load.
  const [seenCurrent, setSeenCurrent] = useState(history.current);
  if (history.current !== seenCurrent) {
    setSeenCurrent(history.current);
    setComparison(history.comparison);
    setFrom(String(history.comparison?.from ?? history.versions[1]?.version ?? ""));
    setTo(String(history.comparison?.to ?? history.versions[0]?.version ?? ""));
    setCompareErrors({});
    setCompareAlert(undefined);
    setOlder([]);
    setOlderBefore(history.olderBefore);
    setOlderAlert(undefined);
  }
  const versions = older.length ? [...history.versions, ...older] : history.versions;
  const title = `${domId}-history-title`;

  const compare = () =>
    startCompare(async () => {
      setCompareAlert(undefined);
      setCompareErrors({});
      const result = await compareRoutingVersionsAction({ service, mode, from: Number(from), to: Number(to) });
      if (!result.ok) {
        setCompareErrors(result.fieldErrors);
        // Problems of the two versions show at their selects; anything else (the list is gone) in the alert.
        const atSelect = Boolean(result.fieldErrors.from || result.fieldErrors.to);
        setCompareAlert(result.message ?? (atSelect ? undefined : (Object.values(result.fieldErrors)[0] ?? "These versions could not be compared.")));
        return;
      }
      setComparison({ from: result.data.from, to: result.data.to, changes: result.data.changes.map((change) => change.sentence), notes: result.data.notes });
    });

  const rollBack = (version: Version) =>
    startRollback(async () => {
      setRollbackAlert(undefined);
      const result = await rollbackRoutingAction({ service, mode, version: version.version });
      if (!result.ok) {
        setRollbackAlert(result.fieldErrors.version ?? result.message ?? "The rollback was not saved.");
        return;
      }
      setConfirming(undefined);
      setStatus(result.data.message);
      // The editors' last "Saved …" lines speak of what the rollback replaced: they clear them.
      if (result.data.version !== null) window.dispatchEvent(new CustomEvent(ROUTING_REPLACED_EVENT, { detail: `${service}:${mode}` }));
      if (result.data.version !== null) notify({ message: `${service} (${mode}): ${result.data.message}` });
      // The action's revalidatePath brings the page's new server parts back with its answer.
      requestAnimationFrame(() => statusRef.current?.focus());
    });

  const showOlder = (before: number) =>
    startOlder(async () => {
      setOlderAlert(undefined);
      const result = await olderRoutingVersionsAction({ service, mode, before });
      if (!result.ok) {
        setOlderAlert(result.message ?? Object.values(result.fieldErrors)[0] ?? "The older versions could not be loaded.");
        return;
      }
      if (result.data.current !== history.current) {
        // Saved again meanwhile: the versions shown were counted from another latest. Start over from it.
        setStatus(`${service} (${mode}) was saved again meanwhile: the history starts from version ${result.data.current} now.`);
        router.refresh();
        return;
      }
      setOlder((shown) => [...shown, ...result.data.versions]);
      setOlderBefore(result.data.olderBefore);
      focusVersion.current = result.data.versions[0]?.version;
    });

  const openConfirmation = (version: Version) => {
    setRollbackAlert(undefined);
    setStatus("");
    setConfirming(version);
  };

  const closeConfirmation = (version: Version) => {
    setConfirming(undefined);
    requestAnimationFrame(() => document.getElementById(`${domId}-rollback-${version.version}`)?.focus());
  };

  return (
    <section aria-labelledby={title} className="card min-w-0" data-testid="routing-history" data-order-id={`${service}:${mode}`}>
      <h2 id={title} className="text-base font-semibold break-all">
        History <span className="sr-only">of</span>{" "}
        <span className="font-mono text-sm font-normal text-slate-600">
          {service} ({mode})
        </span>
      </h2>
      {history.versions.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">No versions yet: each save of the rules or the order becomes one.</p>
      ) : (
        <>
          <p className="text-xs text-slate-600">
            Every save is a version. {olderBefore !== null ? `The ${versions.length} newest of ${history.current} are shown.` : null}
          </p>
          <ol className="mt-2 space-y-2" aria-label={`Versions of ${service}, ${mode} mode, newest first`}>
            {versions.map((version) => (
              <li
                key={version.version}
                id={`${domId}-version-${version.version}`}
                tabIndex={-1}
                className="rounded-md border border-slate-200 p-2 outline-none focus-visible:ring-2 focus-visible:ring-blue-600"
                data-testid="routing-version"
                data-version={version.version}
              >
                <p className="flex flex-wrap items-center gap-x-2 text-sm">
                  <span className="font-medium">Version {version.version}</span>
                  {version.current ? <span className="badge bg-green-100 text-green-800">Current</span> : null}
                  <span className="text-slate-600">
                    <When at={version.savedAt} zone={timeZone} />
                    {version.savedBy ? ` by ${version.savedBy}` : null}
                  </span>
                </p>
                <p className="text-sm text-slate-700">{version.summary}</p>
                {editable && version.rollback ? (
                  confirming?.version === version.version ? (
                    <div
                      role="alertdialog"
                      aria-labelledby={`${domId}-confirm-${version.version}`}
                      aria-describedby={`${domId}-confirm-${version.version}-what`}
                      className="mt-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm"
                      data-testid="rollback-confirmation"
                      onKeyDown={(event) => {
                        if (event.key === "Escape" && !rolling) {
                          event.preventDefault();
                          closeConfirmation(version);
                        }
                      }}
                    >
                      <p id={`${domId}-confirm-${version.version}`} className="font-medium text-amber-950">
                        Roll back {service} ({mode}) to version {version.version}?
                      </p>
                      <div id={`${domId}-confirm-${version.version}-what`} className="mt-1 space-y-2">
                        {version.rollback.refusals.length ? (
                          <ul className="space-y-1 text-red-800">
                            {version.rollback.refusals.map((sentence) => (
                              <li key={sentence}>{sentence}</li>
                            ))}
                          </ul>
                        ) : version.rollback.unchanged ? (
                          <p>Version {version.version} has the rules and order routing uses now: nothing would change.</p>
                        ) : (
                          <>
                            <p>
                              This saves a new version, {history.current + 1}, with version {version.version}&apos;s rules and order. Compared with now:
                            </p>
                            <ul className="list-disc space-y-1 pl-5">
                              {version.rollback.changes.map((sentence) => (
                                <li key={sentence}>{sentence}</li>
                              ))}
                            </ul>
                          </>
                        )}
                        {version.rollback.notes.length ? (
                          <ul className="space-y-1 text-amber-900">
                            {version.rollback.notes.map((sentence) => (
                              <li key={sentence}>{sentence}</li>
                            ))}
                          </ul>
                        ) : null}
                      </div>
                      <FormAlert message={rollbackAlert} />
                      <div className="mt-3 flex flex-wrap gap-3">
                        {version.rollback.refusals.length ? null : (
                          <button type="button" className="btn-primary" onClick={() => rollBack(version)} disabled={rolling} aria-busy={rolling} autoFocus>
                            {rolling ? "Rolling back…" : `Roll back to version ${version.version}`}
                          </button>
                        )}
                        <button
                          type="button"
                          className="btn-secondary"
                          onClick={() => closeConfirmation(version)}
                          disabled={rolling}
                          autoFocus={version.rollback.refusals.length > 0}
                        >
                          {version.rollback.refusals.length ? "Close" : "Keep the current version"}
                        </button>
                      </div>
                    </div>
                  ) : (
                    <button
                      type="button"
                      id={`${domId}-rollback-${version.version}`}
                      className="btn-secondary mt-2 px-2 py-1"
                      onClick={() => openConfirmation(version)}
                      disabled={confirming !== undefined}
                    >
                      Roll back to version {version.version}
                    </button>
                  )
                ) : null}
              </li>
            ))}
          </ol>
          {olderBefore !== null ? (
            <button
              type="button"
              className="btn-secondary mt-2"
              onClick={() => showOlder(olderBefore)}
              disabled={loadingOlder}
              aria-busy={loadingOlder}
              aria-describedby={`${domId}-older-error`}
            >
              {loadingOlder ? "Loading older versions…" : "Show older versions"}
            </button>
          ) : null}
          <p id={`${domId}-older-error`} role="alert" className="field-error">
            {olderAlert}
          </p>
          {versions.length > 1 ? (
            <form
              className="mt-3 flex flex-wrap items-end gap-3"
              aria-label={`Compare versions of ${service}, ${mode} mode`}
              onSubmit={(event) => {
                event.preventDefault();
                compare();
              }}
            >
              {(
                [
                  ["from", "Older version", from, setFrom],
                  ["to", "Newer version", to, setTo],
                ] as const
              ).map(([name, label, value, set]) => (
                <div key={name}>
                  <label htmlFor={`${domId}-compare-${name}`} className="label">
                    {label}
                  </label>
                  <select
                    id={`${domId}-compare-${name}`}
                    className="input mt-1"
                    value={value}
                    onChange={(event) => set(event.target.value)}
                    aria-invalid={compareErrors[name] ? true : undefined}
                    aria-describedby={`${domId}-compare-${name}-error`}
                  >
                    {versions.map((version) => (
                      <option key={version.version} value={version.version}>
                        Version {version.version}
                        {version.current ? " (current)" : ""}
                      </option>
                    ))}
                  </select>
                  <p id={`${domId}-compare-${name}-error`} className="field-error" aria-live="polite">
                    {compareErrors[name]}
                  </p>
                </div>
              ))}
              <div className="pb-6">
                <SubmitButton pending={comparing} pendingLabel="Comparing…">
                  Compare
                </SubmitButton>
              </div>
            </form>
          ) : null}
          {versions.length > 1 ? <FormAlert message={compareAlert} /> : null}
          {comparison ? (
            <div className="mt-2" aria-live="polite">
              <h4 className="text-sm font-medium">
                From version {comparison.from} to version {comparison.to}
              </h4>
              <ChangeList comparison={comparison} testId="routing-comparison" />
            </div>
          ) : null}
        </>
      )}
      <p
        ref={statusRef}
        tabIndex={-1}
        role="status"
        aria-live="polite"
        className="mt-2 text-sm text-slate-700 outline-none"
        data-testid="routing-history-status"
      >
        {status}
      </p>
    </section>
  );
}
