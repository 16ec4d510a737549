import fs from "node:fs";

/** The record files lib/e2e-record.ts writes: `@@e2e-record {header}\n` then `length` raw bytes and a newline. */
const FRAME = "@@e2e-record ";

export type RecordKind = "response" | "request" | "table";
export type RecordHeader = { kind: RecordKind; method?: string; url?: string; status?: number; type?: string; action?: boolean; table?: string; truncated?: boolean; undecoded?: string; length: number };
export type RecordFrame = { file: string; header: RecordHeader; body: Buffer };

/** Every frame of a record file, in order. */
export function readFrames(file: string): RecordFrame[] {
  const bytes = fs.readFileSync(file);
  const frames: RecordFrame[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (bytes.toString("latin1", at, at + FRAME.length) !== FRAME) throw new Error(`${file}: no record frame at byte ${at}`);
    const eol = bytes.indexOf(0x0a, at);
    const header = JSON.parse(bytes.toString("utf8", at + FRAME.length, eol)) as RecordHeader;
    const start = eol + 1;
    frames.push({ file, header, body: bytes.subarray(start, start + header.length) });
    at = start + header.length + 1;
  }
  return frames;
}
