/** Small helpers over JSON-like objects, safe for keys such as "__proto__" sent by clients. */
export type PlainObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Null, undefined and blank strings all mean "not given" (spec 2.3: omitted fields fall back). */
export function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  return typeof value !== "string" || value.trim() !== "";
}

/** Own-property assignment: plain `obj[key] = v` with key "__proto__" would swap the prototype. */
function defineOwn(target: PlainObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function getPath(source: unknown, segments: readonly string[]): unknown {
  let current: unknown = source;
  for (const segment of segments) {
    if (!isPlainObject(current) || !Object.hasOwn(current, segment)) return undefined;
    current = current[segment];
  }
  return current;
}

/**
 * Sets a value, creating objects on the way. Returns false without writing when something
 * that is not an object already sits on the path: the request's own value wins there.
 */
export function setPath(target: PlainObject, segments: readonly string[], value: unknown): boolean {
  const last = segments.at(-1);
  if (last === undefined) return false;
  let current = target;
  for (const segment of segments.slice(0, -1)) {
    if (!Object.hasOwn(current, segment)) defineOwn(current, segment, {});
    const next = current[segment];
    if (!isPlainObject(next)) return false;
    current = next;
  }
  defineOwn(current, last, value);
  return true;
}

/**
 * Deep copy without absent values (see isPresent) and without objects left empty by that.
 * Arrays and other values are kept exactly as sent.
 */
export function copyWithoutBlanks(source: PlainObject): PlainObject {
  const out: PlainObject = {};
  for (const [key, value] of Object.entries(source)) {
    if (!isPresent(value)) continue;
    if (isPlainObject(value)) {
      const nested = copyWithoutBlanks(value);
      if (Object.keys(nested).length > 0) defineOwn(out, key, nested);
    } else {
      defineOwn(out, key, value);
    }
  }
  return out;
}

export type Leaf = { segments: string[]; value: unknown };

/** Arrays count as leaves: their elements have no named path of their own. */
export function listLeaves(source: PlainObject, prefix: readonly string[] = []): Leaf[] {
  const leaves: Leaf[] = [];
  for (const [key, value] of Object.entries(source)) {
    const segments = [...prefix, key];
    if (isPlainObject(value)) leaves.push(...listLeaves(value, segments));
    else leaves.push({ segments, value });
  }
  return leaves;
}

/**
 * Member names no client object may carry: in JavaScript they name an object's
 * prototype machinery, so a value stored under them is a trap for any code that later copies or
 * merges the object with plain assignment. Closed objects (invoice attributes, connection
 * constants) refuse them as unknown keys already; open ones (the customer and everything inside
 * it) refuse them with `reservedMemberProblems`, the one place this list is read.
 */
const RESERVED_MEMBER_NAMES: ReadonlySet<string> = new Set(["__proto__", "constructor", "prototype"]);

export type ReservedMember = { path: (string | number)[]; name: string };

/** Every reserved member name anywhere inside `value` (objects and arrays, iteratively), with its path. */
export function findReservedMembers(value: unknown, prefix: readonly (string | number)[] = []): ReservedMember[] {
  const found: ReservedMember[] = [];
  const stack: { value: unknown; path: (string | number)[] }[] = [{ value, path: [...prefix] }];
  while (stack.length > 0) {
    const { value: current, path } = stack.pop()!;
    if (typeof current !== "object" || current === null) continue;
    if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, path: [...path, index] }));
      continue;
    }
    for (const key of Object.keys(current)) {
      if (RESERVED_MEMBER_NAMES.has(key)) found.push({ path: [...path, key], name: key });
      else stack.push({ value: (current as PlainObject)[key], path: [...path, key] });
    }
  }
  return found.sort((a, b) => a.path.join("\u0000").localeCompare(b.path.join("\u0000")));
}

export function reservedMemberMessage(name: string): string {
  return `"${name}" is a reserved name and cannot be used as a member name; rename or remove it.`;
}
