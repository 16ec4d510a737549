/**
 * DOM work of `hydrateOnUse`: naming a control the same way in the server's markup and in the live
 * form (they are rendered from the same props, but element ids differ), and carrying over what was
 * typed or ticked in the first into the second, through the events React listens to.
 */

/**
 * What was done on the server's markup, to be done again on the live form in the same order:
 * presses by control key, each with its turn, and the turn of each control's last typed change
 * (a template pressed and then an amount typed must end with the typed amount, not the template's).
 */
export type Replay = { turn: number; presses: { key: string | undefined; turn: number }[]; typedAt: Map<string, number> };

export const emptyReplay = (): Replay => ({ turn: 0, presses: [], typedAt: new Map() });

const CONTROLS = "input, select, textarea, button, a[href], summary, [tabindex]";

/**
 * The text of the control's label inside `root`. Not `element.labels`: while the live form and the
 * server's markup are both in the document they share element ids, and a label's `for` then names
 * the first of the two: the live input would have no label, its key would differ from its twin's,
 * and what was typed before the swap would be lost (an input without a name, as the routing
 * simulator's, is keyed by its label).
 */
function labelIn(element: HTMLElement, root: Element): string {
  const own = element.id ? Array.from(root.querySelectorAll("label")).find((label) => label.htmlFor === element.id) : undefined;
  return (own ?? element.closest("label"))?.textContent?.trim() ?? "";
}

function describe(element: HTMLElement, root: Element): string {
  const tag = element.tagName.toLowerCase();
  if (element instanceof HTMLInputElement || element instanceof HTMLSelectElement || element instanceof HTMLTextAreaElement) {
    const type = element instanceof HTMLInputElement ? element.type : tag;
    const choice = element instanceof HTMLInputElement && (type === "checkbox" || type === "radio") ? `=${element.value}` : "";
    const name = element.name || element.getAttribute("aria-label") || labelIn(element, root) || element.getAttribute("placeholder") || "";
    return `${tag}:${type}:${name}${choice}`;
  }
  return `${tag}:${element.getAttribute("aria-label") ?? element.textContent?.trim() ?? ""}`;
}

/** Every control of `root` in document order, each with a key unique within `root`. */
function keyed(root: Element): { key: string; element: HTMLElement }[] {
  const seen = new Map<string, number>();
  return Array.from(root.querySelectorAll<HTMLElement>(CONTROLS)).map((element) => {
    const base = describe(element, root);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return { key: `${base}#${count}`, element };
  });
}

export function controlKeyOf(element: Element, root: Element): string | undefined {
  const target = element.closest(CONTROLS) ?? element;
  return keyed(root).find((entry) => entry.element === target)?.key;
}

export function findControl(root: Element, key: string | undefined): HTMLElement | undefined {
  return key === undefined ? undefined : keyed(root).find((entry) => entry.key === key)?.element;
}

function changedByPerson(element: HTMLElement): boolean {
  if (element instanceof HTMLInputElement) {
    if (element.type === "checkbox" || element.type === "radio") return element.checked !== element.defaultChecked;
    if (element.type === "file") return Boolean(element.files?.length);
    if (element.type === "hidden") return false;
    return element.value !== element.defaultValue;
  }
  if (element instanceof HTMLTextAreaElement) return element.value !== element.defaultValue;
  if (element instanceof HTMLSelectElement) return Array.from(element.options).some((option) => option.selected !== option.defaultSelected);
  return false;
}

/** Sets a value as typing would: through the prototype's setter, so React's value tracker sees the change. */
function typeValue(target: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const setter = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(target), "value")?.set;
  if (setter) setter.call(target, value);
  else target.value = value;
  target.dispatchEvent(new Event("input", { bubbles: true }));
}

function carry(source: HTMLElement, target: HTMLElement) {
  if (source instanceof HTMLInputElement && target instanceof HTMLInputElement) {
    if (source.type === "file") {
      // A chosen file (a key file) goes over as it is; React reads file inputs on change.
      target.files = source.files;
      target.dispatchEvent(new Event("change", { bubbles: true }));
    } else if (source.type === "checkbox" || source.type === "radio") {
      if (target.checked !== source.checked && (source.type === "checkbox" || source.checked)) target.click();
    } else if (target.value !== source.value) typeValue(target, source.value);
  } else if (source instanceof HTMLTextAreaElement && target instanceof HTMLTextAreaElement) {
    if (target.value !== source.value) typeValue(target, source.value);
  } else if (source instanceof HTMLSelectElement && target instanceof HTMLSelectElement) {
    const chosen = new Set(Array.from(source.selectedOptions, (option) => option.value));
    for (const option of Array.from(target.options)) option.selected = chosen.has(option.value);
    target.dispatchEvent(new Event("change", { bubbles: true }));
  }
}

/** A control of the server's markup that the person typed in, chose or ticked. */
export type Change = { key: string; element: HTMLElement };

/** The controls of `from` (the server's markup) the person changed, each with its key. */
export function changedControls(from: Element): Change[] {
  return keyed(from).filter((entry) => changedByPerson(entry.element));
}

/**
 * What was typed, chose or ticked in those controls, done again on their twins in `to`. The
 * sources may already be out of the document: a detached control keeps its value.
 */
export function carryInto(to: Element, changes: readonly Change[]): void {
  const targets = new Map(keyed(to).map((entry) => [entry.key, entry.element]));
  for (const { key, element } of changes) {
    const target = targets.get(key);
    if (target) carry(element, target);
  }
}
