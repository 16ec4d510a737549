"use client";

import { lazy, Suspense, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore, type ComponentType } from "react";
import { ServerMarkupContext } from "./server-markup";
import { carryInto, changedControls, controlKeyOf, emptyReplay, findControl, type Change, type Replay } from "./hydrate-on-use-dom";
import { takeEarlyUses } from "./on-use-early";

/** Stable, so React never rewrites the server's markup while the form waits (it compares by identity). */
const KEEP_SERVER_HTML = { __html: "" };
const noSubscribe = () => () => {};

/**
 * A form that loads when used. `load` is a dynamic import of the editing form (react-hook-form,
 * its schema, its action). The server renders that form with the page's values, so the page shows
 * them, with the same labels and layout, before any of its JavaScript arrives; the browser keeps
 * that markup as it is (it is not hydrated) until the first focus, pointer press or key press
 * inside it, or a pointer moving over it, starts the import. The live form then takes the markup's
 * place in one frame, and nothing done meanwhile is lost: what was typed or ticked in the server's
 * inputs is typed or ticked again in the live ones (so react-hook-form and the unsaved-changes
 * guard see it), the focus and caret move to the same field, and a press of a button (a submit,
 * Enter in a field) is pressed again. While a pointer is down the swap waits for its click. What is
 * pressed or typed before the page's own script runs is caught by the root layout's inline script
 * (on-use-early.ts) and replayed the same way.
 *
 * `liveAfterMs` also makes it live that long after the page loaded, used or not (a list whose
 * refreshes are due by then).
 *
 * Rendered by a client parent after the page loaded (a client navigation, a section opened), there
 * is no server markup to keep: the form is rendered at once (its chunk loading in a Suspense).
 */
export function hydrateOnUse<P extends object>(load: () => Promise<ComponentType<P>>, name: string, options: { liveAfterMs?: number } = {}): ComponentType<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<ComponentType<P>> | undefined;
  const start = () =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        // The network went away: the next interaction tries again.
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(() => start().then((component) => ({ default: component })));

  function FormOnUse(props: P) {
    const hydrating = useSyncExternalStore(
      noSubscribe,
      () => false,
      () => true,
    );
    const [fresh] = useState(!hydrating);
    const [Live, setLive] = useState<ComponentType<P>>();
    const [swapped, setSwapped] = useState(false);
    const staticRef = useRef<HTMLDivElement>(null);
    const liveRef = useRef<HTMLDivElement>(null);
    const replay = useRef<Replay>(emptyReplay());
    const wantLive = useRef<() => void>(undefined);
    // The server's markup shows the props of the first render; new ones (a refresh after a save
    // elsewhere on the page) need the live form to show them.
    const [firstProps] = useState(() => (fresh || typeof window === "undefined" ? "" : JSON.stringify(props)));
    useEffect(() => {
      if (!fresh && !Live && JSON.stringify(props) !== firstProps) wantLive.current?.();
    }, [fresh, Live, props, firstProps]);

    useEffect(() => {
      const root = staticRef.current;
      if (fresh || !root) return;
      let pressing = false;
      let wanted = false;
      let done = false;
      const swapWhenReady = () => {
        if (done || pressing || !wanted || !loaded) return;
        done = true;
        setLive(() => loaded);
      };
      const want = () => {
        wanted = true;
        start().then(swapWhenReady, () => {
          wanted = false;
        });
      };
      const warm = () => void start().catch(() => undefined);
      const onPointerDown = () => {
        pressing = true;
        want();
      };
      const release = () =>
        setTimeout(() => {
          pressing = false;
          swapWhenReady();
        }, 0);
      const onClick = (event: MouseEvent) => {
        // Buttons, and links whose live twin does more than follow its address (data-on-use-press).
        const button = (event.target as Element | null)?.closest?.("button, [data-on-use-press]");
        if (button && root.contains(button) && !(button instanceof HTMLButtonElement && button.disabled)) {
          // The server's button does nothing: the live one is pressed instead, once it is there.
          event.preventDefault();
          replay.current.presses.push({ key: controlKeyOf(button, root), turn: (replay.current.turn += 1) });
          want();
        }
      };
      // When each control was last changed, so that the replay keeps the order of changes and presses.
      const onInput = (event: Event) => {
        const key = event.target instanceof Element ? controlKeyOf(event.target, root) : undefined;
        if (key !== undefined) replay.current.typedAt.set(key, (replay.current.turn += 1));
      };
      // A server form must never submit itself (a GET of this page): its live twin does.
      const onSubmit = (event: SubmitEvent) => event.preventDefault();
      wantLive.current = want;
      // From here a use is caught (tests wait for it, as they wait for hydration elsewhere).
      root.setAttribute("data-ready", "");
      root.addEventListener("pointerover", warm, { once: true });
      root.addEventListener("pointerdown", onPointerDown, true);
      root.addEventListener("pointerup", release, true);
      root.addEventListener("pointercancel", release, true);
      root.addEventListener("focusin", want, true);
      root.addEventListener("keydown", want, true);
      // A value set without a key or pointer (a file chosen, an autofill) is a use too.
      root.addEventListener("change", want, true);
      root.addEventListener("input", onInput, true);
      root.addEventListener("change", onInput, true);
      root.addEventListener("click", onClick, true);
      root.addEventListener("submit", onSubmit, true);
      // What was pressed or typed before the page's script ran, caught by the layout's inline script.
      const early = takeEarlyUses(root);
      for (const use of early) {
        const key = controlKeyOf(use.element, root);
        if (use.kind === "press") replay.current.presses.push({ key, turn: (replay.current.turn += 1) });
        else if (key !== undefined) replay.current.typedAt.set(key, (replay.current.turn += 1));
      }
      // Focus may have arrived before this effect ran (a fast Tab while the page's script loaded).
      if (early.length || root.contains(document.activeElement)) want();
      const timer = options.liveAfterMs === undefined ? undefined : setTimeout(want, options.liveAfterMs);
      return () => {
        clearTimeout(timer);
        done = true;
        wantLive.current = undefined;
        root.removeEventListener("pointerover", warm);
        root.removeEventListener("pointerdown", onPointerDown, true);
        root.removeEventListener("pointerup", release, true);
        root.removeEventListener("pointercancel", release, true);
        root.removeEventListener("focusin", want, true);
        root.removeEventListener("keydown", want, true);
        root.removeEventListener("change", want, true);
        root.removeEventListener("input", onInput, true);
        root.removeEventListener("change", onInput, true);
        root.removeEventListener("click", onClick, true);
        root.removeEventListener("submit", onSubmit, true);
      };
    }, [fresh]);

    // The live form is in the document, the server's markup still beside it (not painted yet):
    // carry over what was typed, the focus and the pending presses, then drop the markup.
    useLayoutEffect(() => {
      const from = staticRef.current;
      const to = liveRef.current;
      if (!Live || !from || !to) return;
      const { presses, typedAt } = replay.current;
      replay.current = emptyReplay();
      const firstPress = presses[0]?.turn ?? Infinity;
      const changes = changedControls(from);
      const turnOf = (change: Change) => typedAt.get(change.key) ?? 0;
      // What was typed before any press goes over now, before the live form is painted.
      carryInto(
        to,
        changes.filter((change) => turnOf(change) < firstPress),
      );
      const active = document.activeElement;
      if (active instanceof HTMLElement && from.contains(active)) {
        const target = findControl(to, controlKeyOf(active, from));
        if (target) {
          target.focus({ preventScroll: true });
          if (
            (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) &&
            (active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement)
          ) {
            try {
              target.setSelectionRange(active.selectionStart, active.selectionEnd, active.selectionDirection ?? undefined);
            } catch {
              // Inputs without a caret (date, number) keep the browser's.
            }
          }
        }
      }
      setSwapped(true);
      // Then the presses, and what was typed after each, one at a time in the order they were done,
      // each after React has answered the one before (a template applied, an amount typed, Send).
      const steps = [
        ...presses.map((press) => ({ turn: press.turn, run: () => findControl(to, press.key)?.click() })),
        ...changes.filter((change) => turnOf(change) >= firstPress).map((change) => ({ turn: turnOf(change), run: () => carryInto(to, [change]) })),
      ].sort((a, b) => a.turn - b.turn);
      steps.forEach((step, index) => setTimeout(step.run, index * 50));
    }, [Live]);

    if (fresh) {
      return (
        <div data-form-on-use={name} data-live="">
          <Suspense fallback={null}>
            <Lazy {...props} />
          </Suspense>
        </div>
      );
    }
    if (typeof window === "undefined") {
      // The server renders the real form: its markup is what the browser keeps until the first use.
      return (
        <div data-form-on-use={name}>
          <ServerMarkupContext.Provider value>
            <Lazy {...props} />
          </ServerMarkupContext.Provider>
        </div>
      );
    }
    return (
      <>
        {swapped ? null : <div key="static" ref={staticRef} data-form-on-use={name} dangerouslySetInnerHTML={KEEP_SERVER_HTML} suppressHydrationWarning />}
        {Live ? (
          <div key="live" ref={liveRef} data-form-on-use={name} data-live="">
            <Live {...props} />
          </div>
        ) : null}
      </>
    );
  }
  FormOnUse.displayName = `FormOnUse(${name})`;
  return FormOnUse;
}
