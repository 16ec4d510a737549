"use client";

import { useEffect, useId } from "react";

/**
 * The unsaved-changes guard every dashboard form with editable state uses. While any form on the
 * page is dirty:
 * - closing or reloading the tab gets the browser's own prompt (`beforeunload`);
 * - a click on a same-site link (the nav, any <Link>) is held in the capture phase, before Next's
 *   Link sees it, and a dialog asks "Leave" or "Stay"; Leave clicks the link again;
 * - Back is caught with one extra history entry for the page (same URL, Next's state copied):
 *   going back from it lands on the same page, the popstate is kept from Next's router, and the
 *   dialog asks; Stay puts the entry back, Leave goes on back.
 * The App Router has no route-change events to cancel, and `onNavigate` of next/link covers only
 * the links that pass it; this covers every anchor and Back with one listener each, installed on
 * the first dirty form. A form is clean again when it saves (each resets to what was saved), and
 * when its values are put back as they were: dirty means "differs from the saved values", never
 * "touched" (`useUnsavedForm`).
 */

const LEAVE_QUESTION = "You have unsaved changes. Leave without saving?";

const dirtyForms = new Set<string>();
/** The extra history entry this page pushed (we stand on it until Back): its URL and state. */
let sentinel: { url: string; state: unknown } | undefined;
let question: Promise<boolean> | undefined;
let installed = false;

const unsaved = () => dirtyForms.size > 0;

/** The accessible question: a modal dialog (focus inside, Escape = Stay), Stay focused first. */
function ask(): Promise<boolean> {
  question ??= new Promise<boolean>((resolve) => {
    const before = document.activeElement as HTMLElement | null;
    const dialog = document.createElement("dialog");
    dialog.setAttribute("role", "alertdialog");
    dialog.setAttribute("aria-labelledby", "unsaved-changes-title");
    dialog.setAttribute("aria-describedby", "unsaved-changes-text");
    dialog.dataset.testid = "unsaved-changes-dialog";
    dialog.className =
      "m-auto w-[min(26rem,calc(100vw-2rem))] rounded-lg border border-slate-200 bg-white p-5 text-slate-900 shadow-xl backdrop:bg-slate-900/40";
    dialog.innerHTML =
      '<h2 id="unsaved-changes-title" class="text-base font-semibold">Unsaved changes</h2>' +
      `<p id="unsaved-changes-text" class="mt-2 text-sm text-slate-700">${LEAVE_QUESTION}</p>` +
      '<div class="mt-4 flex flex-wrap justify-end gap-3">' +
      '<button type="button" class="btn-secondary" data-choice="stay" autofocus>Stay</button>' +
      '<button type="button" class="btn-danger" data-choice="leave">Leave</button></div>';
    const finish = (leave: boolean) => {
      dialog.close();
      dialog.remove();
      question = undefined;
      if (leave) dirtyForms.clear();
      else before?.focus();
      resolve(leave);
    };
    dialog.addEventListener("cancel", (event) => {
      event.preventDefault();
      finish(false);
    });
    dialog.addEventListener("click", (event) => {
      const choice = (event.target as Element).closest("button")?.dataset.choice;
      if (choice) finish(choice === "leave");
    });
    document.body.append(dialog);
    dialog.showModal();
  });
  return question;
}

/** For controls that discard the page's edits without a link (the Test/Live switch): true to go on. */
export function confirmLeave(): Promise<boolean> {
  return unsaved() ? ask() : Promise.resolve(true);
}

function onBeforeUnload(event: BeforeUnloadEvent) {
  if (!unsaved()) return;
  event.preventDefault();
  // Older browsers show the prompt only when returnValue is set.
  event.returnValue = "";
}

function onClick(event: MouseEvent) {
  if (!unsaved() || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest?.("a[href]");
  if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute("download") || (anchor.target && anchor.target !== "_self")) return;
  const to = new URL(anchor.href, location.href);
  // Another site: the browser's beforeunload prompt asks. The same page (a #fragment): nothing is lost.
  if (to.origin !== location.origin || (to.pathname === location.pathname && to.search === location.search)) return;
  event.preventDefault();
  event.stopPropagation();
  void ask().then((leave) => {
    if (!leave) return;
    if (anchor.isConnected) anchor.click();
    else location.assign(to);
  });
}

function onPopState(event: PopStateEvent) {
  if (!sentinel) return;
  const { url, state } = sentinel;
  sentinel = undefined;
  const samePage = location.href === url;
  if (!unsaved()) {
    // Back from the extra entry with nothing to lose: skip it, as if it were never there.
    if (samePage) {
      event.stopImmediatePropagation();
      history.back();
    }
    return;
  }
  // Next's router does not see this Back until the person chooses.
  event.stopImmediatePropagation();
  void ask().then((leave) => {
    if (!leave) {
      history.pushState(state, "", url);
      sentinel = { url, state };
    } else if (samePage) history.back();
    // Several entries back at once (the Back button's list): Next's router goes there now.
    else window.dispatchEvent(new PopStateEvent("popstate", { state: history.state }));
  });
}

function guardBack() {
  if (sentinel?.url === location.href) return;
  sentinel = { url: location.href, state: history.state };
  history.pushState(history.state, "", location.href);
}

function install() {
  if (installed) return;
  installed = true;
  window.addEventListener("beforeunload", onBeforeUnload);
  document.addEventListener("click", onClick, true);
  // Capture: runs before the App Router's own popstate listener on window.
  window.addEventListener("popstate", onPopState, true);
}

/** Marks this form's edits as unsaved while `dirty` is true (see above). */
export function useUnsavedChanges(dirty: boolean): void {
  const id = useId();
  useEffect(() => {
    if (!dirty) return;
    install();
    dirtyForms.add(id);
    guardBack();
    return () => {
      dirtyForms.delete(id);
    };
  }, [dirty, id]);
}

type Leaf = string | number | boolean | null | undefined;

/** One value as a form shows it: "30" and 30 are the same field, and a blank is blank however written. */
function leafText(value: Leaf): string {
  return value === undefined || value === null || value === false ? "" : String(value);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Whether a form's values are the saved ones, as a person sees them: numbers typed as text, a
 * field the defaults leave out and the same field left blank, a ticked set in any order, all the same.
 */
export function sameFormValues(values: unknown, saved: unknown): boolean {
  if (Array.isArray(values) || Array.isArray(saved)) {
    const a = Array.isArray(values) ? values : [];
    const b = Array.isArray(saved) ? saved : [];
    if (a.length !== b.length) return false;
    if ([...a, ...b].every((item) => !isRecord(item) && !Array.isArray(item))) {
      const sorted = (list: unknown[]) =>
        list
          .map((item) => leafText(item as Leaf))
          .sort()
          .join("\u0000");
      return sorted(a) === sorted(b);
    }
    return a.every((item, index) => sameFormValues(item, b[index]));
  }
  if (isRecord(values) || isRecord(saved)) {
    const a = isRecord(values) ? values : {};
    const b = isRecord(saved) ? saved : {};
    return [...new Set([...Object.keys(a), ...Object.keys(b)])].every((key) => sameFormValues(a[key], b[key]));
  }
  return leafText(values as Leaf) === leafText(saved as Leaf);
}

/**
 * The guard for a react-hook-form form: unsaved while its values differ from its defaults (what
 * was saved: each form resets to it after a save). react-hook-form's own `isDirty` stays true when
 * a number field's text is typed back ("30" is not 30) or a field the defaults leave out is cleared.
 */
export function useUnsavedForm(form: { watch: () => unknown; formState: { defaultValues?: unknown } }): void {
  useUnsavedChanges(!sameFormValues(form.watch(), form.formState.defaultValues));
}
