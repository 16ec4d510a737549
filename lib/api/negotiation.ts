import { ApiError } from "./errors";
import { JSON_API_CONTENT_TYPE } from "./errors";

/**
 * JSON:API 1.1 "Content Negotiation": the JSON:API media type may carry only the `ext` and
 * `profile` parameters. This server implements no extension, so an `ext` it is asked to apply is
 * refused like any other parameter; a `profile` may be ignored.
 */
type MediaType = { type: string; parameters: { name: string; value: string }[] };

/** Splits on `sep` outside quoted strings (a profile URI list is quoted and may hold `;` or `,`). */
function splitOutsideQuotes(text: string, sep: string): string[] {
  const parts: string[] = [];
  let current = "";
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index]!;
    if (char === '"' && text[index - 1] !== "\\") quoted = !quoted;
    if (char === sep && !quoted) {
      parts.push(current);
      current = "";
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

export function parseMediaType(text: string): MediaType {
  const [type = "", ...rest] = splitOutsideQuotes(text, ";");
  const parameters = rest
    .map((part) => part.trim())
    .filter((part) => part !== "")
    .map((part) => {
      const equals = part.indexOf("=");
      const name = (equals === -1 ? part : part.slice(0, equals)).trim().toLowerCase();
      const value =
        equals === -1
          ? ""
          : part
              .slice(equals + 1)
              .trim()
              .replace(/^"(.*)"$/, "$1");
      return { name, value };
    });
  return { type: type.trim().toLowerCase(), parameters };
}

/** Why a JSON:API media type cannot be served, or undefined when it can. `q` is Accept's weight, not a media type parameter. */
function unsupportedParameter(media: MediaType, { inAccept }: { inAccept: boolean }): string | undefined {
  for (const { name } of media.parameters) {
    if (name === "profile") continue;
    if (inAccept && name === "q") continue;
    if (name === "ext") return "ext (this server implements no JSON:API extension)";
    return name;
  }
  return undefined;
}

/** 415 for a JSON:API Content-Type with a parameter other than profile (ext included: no extension is supported). */
export function checkContentType(request: Request): void {
  const header = request.headers.get("content-type");
  if (!header) return;
  const media = parseMediaType(header);
  if (media.type !== JSON_API_CONTENT_TYPE) return;
  const bad = unsupportedParameter(media, { inAccept: false });
  if (bad) {
    throw new ApiError(
      415,
      "unsupported_media_type",
      "Unsupported media type",
      `The JSON:API media type may carry only the ext and profile parameters; drop the ${bad} parameter: Content-Type: ${JSON_API_CONTENT_TYPE}.`,
    );
  }
}

/** 406 when Accept names the JSON:API media type and every instance of it carries a parameter this server cannot honour. */
function checkAccept(request: Request): void {
  const header = request.headers.get("accept");
  if (!header) return;
  const instances = splitOutsideQuotes(header, ",")
    .map(parseMediaType)
    .filter((media) => media.type === JSON_API_CONTENT_TYPE);
  if (instances.length === 0) return;
  const reasons = instances.map((media) => unsupportedParameter(media, { inAccept: true }));
  if (reasons.every((reason) => reason !== undefined)) {
    throw new ApiError(
      406,
      "not_acceptable",
      "Not acceptable",
      `Every ${JSON_API_CONTENT_TYPE} in Accept carries a parameter this server cannot honour (${reasons[0]}); accept ${JSON_API_CONTENT_TYPE} without parameters.`,
    );
  }
}

/** Both checks, in the order JSON:API lists them; wrappers call this before the handler. */
export function negotiateJsonApi(request: Request): void {
  checkContentType(request);
  checkAccept(request);
}
