/**
 * `npx tsx bench/profile-summary.ts <dir>`: the CPU profile `npm run bench:api` wrote with
 * BENCH_CPU_PROF=<dir>, cut to the seconds the app was under load (`windows.json`, written beside
 * it), as a table of self time per layer. Each sample is charged to the frame it was taken in; node's
 * own frames are charged to the nearest caller that is ours or a library's, so a `Buffer` copy made
 * for the driver counts as the driver.
 */
import fs from "node:fs";
import path from "node:path";

type CallFrame = { functionName: string; url: string };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };

/** First rule that matches a frame names its layer; the order matters (most specific first). */
const LAYERS: [string, (frame: CallFrame) => boolean][] = [
  ["idle (waiting on I/O or timers)", (f) => f.functionName === "(idle)"],
  ["garbage collection", (f) => f.functionName === "(garbage collector)"],
  ["V8 (compile, runtime)", (f) => f.functionName === "(program)"],
  ["database (PGlite WebAssembly)", (f) => f.url.startsWith("wasm://")],
  ["driver (PGlite JS)", (f) => f.url.includes("@electric-sql/pglite")],
  ["driver (postgres.js)", (f) => f.url.includes("node_modules/postgres/")],
  ["SQL build (drizzle)", (f) => f.url.includes("drizzle-orm")],
  ["validation (zod, contract)", (f) => f.url.includes("node_modules/zod") || f.url.includes("/lib/invoices/contract/")],
  ["auth and limits", (f) => /\/lib\/(api\/(with-api-key|rate-limit)|api-keys\/|rate-limit\/|cache\/)/.test(f.url)],
  ["routing", (f) => /\/lib\/(routing|invoices\/create\/routing)/.test(f.url)],
  ["customer resolution", (f) => f.url.includes("/lib/customers/")],
  ["logging", (f) => f.url.includes("/lib/logger") || f.url.includes("node_modules/pino")],
  ["serialisation (JSON:API)", (f) => /\/lib\/api\/(invoice-re|responses|envelope|number-literals|security-headers)/.test(f.url)],
  ["request log (rows, redaction)", (f) => /\/lib\/(request-log|redaction)\/|\/lib\/api\/request-log/.test(f.url)],
  ["metrics", (f) => f.url.includes("/lib/metrics/") || f.url.includes("node_modules/prom-client")],
  ["invoice create and store", (f) => /\/lib\/invoices\//.test(f.url)],
  ["lean path and bridge (server/)", (f) => f.url.includes("/server/") && !f.url.includes("node_modules")],
  ["our code (other lib/)", (f) => f.url.includes("/lib/") && !f.url.includes("node_modules")],
  ["framework (next)", (f) => f.url.includes("node_modules/next/")],
  ["other libraries", (f) => f.url.includes("node_modules/")],
];
const NODE_HTTP = "HTTP parse and write (node)";
const NODE_OTHER = "node (timers, streams, crypto, JSON)";

function layerOfFrame(frame: CallFrame): string | undefined {
  for (const [name, test] of LAYERS) if (test(frame)) return name;
  return undefined;
}

export function summarise(dir: string): { layer: string; ms: number; share: number }[] {
  const file = fs.readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
  if (!file) throw new Error(`no .cpuprofile in ${dir}`);
  const profile = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as Profile;
  const windowsFile = path.join(dir, "windows.json");
  const windows: [number, number][] = fs.existsSync(windowsFile) ? JSON.parse(fs.readFileSync(windowsFile, "utf8")) : [];
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const cache = new Map<number, string>();
  const layerOf = (id: number): string => {
    const known = cache.get(id);
    if (known) return known;
    let layer: string | undefined;
    let http = false;
    for (let at: number | undefined = id; at !== undefined && !layer; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      layer = layerOfFrame(frame);
      if (!layer && /_http_|node:http|llhttp/.test(frame.url + frame.functionName)) http = true;
    }
    const result = http && (!layer || layer.startsWith("lean path")) ? NODE_HTTP : (layer ?? NODE_OTHER);
    cache.set(id, result);
    return result;
  };

  const totals = new Map<string, number>();
  let time = profile.startTime;
  let all = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i]!;
    const delta = profile.timeDeltas[i + 1] ?? 0;
    if (windows.length && !windows.some(([from, to]) => time >= from && time <= to)) continue;
    const layer = layerOf(profile.samples[i]!);
    totals.set(layer, (totals.get(layer) ?? 0) + delta);
    all += delta;
  }
  return [...totals].map(([layer, micros]) => ({ layer, ms: micros / 1000, share: micros / all })).sort((a, b) => b.ms - a.ms);
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const dir = process.argv[2];
  if (!dir) throw new Error("usage: tsx bench/profile-summary.ts <BENCH_CPU_PROF dir>");
  const rows = summarise(dir);
  console.log(`${"layer".padEnd(40)}${"ms".padStart(10)}${"share".padStart(9)}`);
  for (const row of rows) console.log(`${row.layer.padEnd(40)}${row.ms.toFixed(0).padStart(10)}${`${(row.share * 100).toFixed(1)} %`.padStart(9)}`);
}
