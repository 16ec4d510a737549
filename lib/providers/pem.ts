/**
 * Structural PEM checks shared by every key-file field (spec 5.1: keys arrive as text files).
 * Isomorphic on purpose: the connection form runs the same checks in the browser before upload,
 * while the server additionally parses the key with node:crypto (server/parse-key.ts).
 */

export type PemKind = "public" | "private";

export const MAX_KEY_FILE_BYTES = 64 * 1024;

export const PEM_LABELS: Readonly<Record<PemKind, readonly string[]>> = {
  public: ["PUBLIC KEY", "RSA PUBLIC KEY"],
  private: ["PRIVATE KEY", "RSA PRIVATE KEY", "EC PRIVATE KEY"],
};

export type PemBlock = { label: string; endLabel: string; body: string };

const BLOCK_PATTERN = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END ([A-Z0-9 ]+)-----/g;
const BEGIN_PATTERN = /-----BEGIN /g;
const BASE64_BODY = /^[A-Za-z0-9+/]+={0,2}$/;

export function findPemBlocks(text: string): PemBlock[] {
  return [...text.matchAll(BLOCK_PATTERN)].map((match) => ({
    label: match[1] ?? "",
    body: match[2] ?? "",
    endLabel: match[3] ?? "",
  }));
}

function countPemBeginMarkers(text: string): number {
  return [...text.matchAll(BEGIN_PATTERN)].length;
}

function measureBytes(text: string): number {
  return new TextEncoder().encode(text).length;
}

function classifyLabel(label: string): PemKind | null {
  if (PEM_LABELS.public.includes(label)) return "public";
  if (PEM_LABELS.private.includes(label)) return "private";
  return null;
}

function describeExpected(expected: PemKind): string {
  return `a ${expected} key (-----BEGIN ${expected === "public" ? "PUBLIC" : "PRIVATE"} KEY-----)`;
}

function isBase64Body(body: string): boolean {
  const compact = body.replace(/\s+/g, "");
  return compact.length > 0 && compact.length % 4 === 0 && BASE64_BODY.test(compact);
}

/**
 * Returns why `text` cannot be the `expected` kind of key, or null when it looks right.
 * `fieldLabel` names the form field so the message reads naturally next to it.
 */
export function checkPem(text: string, expected: PemKind, fieldLabel: string): string | null {
  if (measureBytes(text) > MAX_KEY_FILE_BYTES) return "Key file is larger than 64 KiB";
  if (text.trim() === "") return `${fieldLabel} is required`;

  const blocks = findPemBlocks(text);
  const begins = countPemBeginMarkers(text);
  if (blocks.length === 0) {
    return `${fieldLabel} is not a PEM key file; expected ${describeExpected(expected)}`;
  }
  if (blocks.length > 1 || begins > 1) {
    return `${fieldLabel} must contain exactly one PEM block; this file has ${Math.max(blocks.length, begins)}`;
  }

  const [block] = blocks as [PemBlock];
  if (block.label !== block.endLabel) {
    return `${fieldLabel} is damaged: it begins with ${block.label} but ends with ${block.endLabel}`;
  }
  const actual = classifyLabel(block.label);
  if (actual === null) {
    return `${fieldLabel} takes ${describeExpected(expected)}; this file holds a ${block.label}`;
  }
  if (actual !== expected) {
    return `This is a ${actual} key; ${fieldLabel} takes ${describeExpected(expected)}`;
  }
  if (!isBase64Body(block.body)) {
    return `${fieldLabel} is damaged: the PEM body is not valid base64`;
  }
  return null;
}
