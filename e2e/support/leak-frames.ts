import fs from "node:fs";
// Types only, erased when compiled: running lib/e2e-record.ts here would start its output tee.
import type { RecordHeader } from "../../lib/e2e-record";

/**
 * The record files lib/e2e-record.ts writes: `@@e2e-record {header}\n` then `length` raw bytes and a
 * newline. A response's header holds its response headers too (`headers`).
 */
const FRAME = "@@e2e-record ";

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
