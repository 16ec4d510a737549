/**
 * A small HTML builder for the hosted page, which is rendered without React (lib/pay/page): every
 * value put into `html` is escaped unless it is itself built with `html`. Plain text only goes in
 * through interpolation, so nothing stored (a merchant name, a provider's decline reason) can
 * become markup.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ESCAPES[char]!);
}

type Part = Html | string | number | null | undefined | false | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return "";
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join("");
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...parts: Part[]): Html {
  let text = strings[0]!;
  for (let index = 0; index < parts.length; index++) text += render(parts[index]) + strings[index + 1]!;
  return new Html(text);
}

/** An attribute present without a value when `on`, absent otherwise. */
export function flag(name: string, on: boolean | undefined): Html {
  return new Html(on ? ` ${name}` : "");
}
