import http from "node:http";

export type LoadResult = { requests: number; errors: number; seconds: number; throughput: number; p50: number; p99: number; statuses: Record<number, number> };

type RequestOptions = {
  port: number;
  /** The path of every request, or of request `n` sent by client `client`. */
  path: string | ((n: number, client: number) => string);
  /** POST by default. */
  method?: string;
  /** Per client: each client may carry its own API key (the API limits each key to 100 requests/s). */
  headers: (client: number) => Record<string, string>;
  /** The body of request `n`; none when absent (GET). */
  body?: (n: number, client: number) => string;
  /** Status codes that count as success. */
  expect: number[];
};

type Options = RequestOptions & {
  concurrency: number;
  seconds: number;
};

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function sender(options: RequestOptions, agent: http.Agent) {
  const method = options.method ?? "POST";
  const pathOf = typeof options.path === "string" ? () => options.path as string : options.path;
  return (n: number, client: number, headers: Record<string, string>) =>
    new Promise<number>((resolve) => {
      const body = options.body?.(n, client);
      const request = http.request(
        {
          host: "127.0.0.1",
          port: options.port,
          path: pathOf(n, client),
          method,
          agent,
          headers: body === undefined ? headers : { ...headers, "content-length": Buffer.byteLength(body) },
        },
        (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode ?? 0));
        },
      );
      request.on("error", () => resolve(0));
      request.setTimeout(10_000, () => request.destroy());
      request.end(body);
    });
}

function summarise(latencies: number[], statuses: Record<number, number>, expect: number[], started: number): LoadResult {
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  let errors = 0;
  for (const [status, count] of Object.entries(statuses)) if (!expect.includes(Number(status))) errors += count;
  return {
    requests: latencies.length,
    errors,
    seconds,
    throughput: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statuses,
  };
}

/**
 * Closed-loop load: `concurrency` clients, each sending its next request as soon as the previous
 * answer arrives, over keep-alive connections, for a fixed time. Bounded in count and time, loopback only.
 */
export async function runLoad(options: Options): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const send = sender(options, agent);
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  let sequence = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const started = performance.now();

  const client = async (index: number) => {
    const headers = options.headers(index);
    while (performance.now() < deadline && sequence < 1_000_000) {
      const t0 = performance.now();
      const status = await send(sequence++, index, headers);
      latencies.push(performance.now() - t0);
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, index) => client(index)));
  agent.destroy();
  return summarise(latencies, statuses, options.expect, started);
}

/**
 * Open-loop load: requests are sent on a fixed schedule (`rate` per second, spread evenly over
 * `clients` key holders) whether or not earlier ones were answered, so a slow answer cannot slow the
 * sender down and hide itself. Each latency runs from the moment the request was due, not from when
 * it went out (no coordinated omission). Sockets are opened as needed, at most `maxSockets`.
 */
export async function runOpenLoop(options: RequestOptions & { rate: number; seconds: number; clients: number; maxSockets?: number }): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 256 });
  const send = sender(options, agent);
  const headers = Array.from({ length: options.clients }, (_, client) => options.headers(client));
  const latencies: number[] = [];
  const statuses: Record<number, number> = {};
  const total = Math.round(options.rate * options.seconds);
  const interval = 1000 / options.rate;
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let n = 0; n < total; n++) {
    const due = started + n * interval;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const client = n % options.clients;
    inFlight.push(
      send(n, client, headers[client]!).then((status) => {
        latencies.push(performance.now() - due);
        statuses[status] = (statuses[status] ?? 0) + 1;
      }),
    );
  }
  await Promise.all(inFlight);
  agent.destroy();
  return summarise(latencies, statuses, options.expect, started);
}
