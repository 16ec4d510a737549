/**
 * What a person does to a form that loads when used (hydrate-on-use.tsx) before the page's own
 * script has run: until then nothing listens on the server's markup, and a press of one of its
 * buttons (a template, Send) would do nothing at all, or a press of its submit button would send
 * the form as a GET of the page. A few lines of inline script in the root layout (on-use-early-script.tsx)
 * catch those presses and typed changes from the first paint, in order; each form takes its own
 * once it listens itself (data-ready), and replays them with the rest.
 */

/** The global the inline script fills: each entry a pressed control or a changed one, in the order done. */
const EARLY_USES = "__formOnUseEarly";

type EarlyUse = { kind: "press" | "input"; element: Element };

/** The inline script: plain ES5, no imports, run while the body is parsed. */
export const earlyUseScript =
  `(function(){var q=window.${EARLY_USES}=[];` +
  `function root(t){var r=t&&t.closest&&t.closest("[data-form-on-use]");return r&&!r.hasAttribute("data-ready")&&!r.hasAttribute("data-live")?r:null}` +
  `addEventListener("click",function(e){if(!root(e.target))return;var b=e.target.closest("button,[data-on-use-press]");` +
  `if(b&&!b.disabled){e.preventDefault();q.push({kind:"press",element:b})}},true);` +
  `function typed(e){if(root(e.target))q.push({kind:"input",element:e.target})}` +
  `addEventListener("input",typed,true);addEventListener("change",typed,true);` +
  `addEventListener("submit",function(e){if(root(e.target))e.preventDefault()},true)})()`;

/** The entries for `root`, taken out of the global so that no other form replays them. */
export function takeEarlyUses(root: Element): EarlyUse[] {
  const queue = (window as unknown as Record<string, EarlyUse[] | undefined>)[EARLY_USES];
  if (!queue) return [];
  const mine = queue.filter((use) => root.contains(use.element));
  if (mine.length) queue.splice(0, queue.length, ...queue.filter((use) => !mine.includes(use)));
  return mine;
}
