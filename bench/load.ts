import http from "node:http";

export type LoadResult = { requests: number; errors: number; seconds: number; throughput: number; p50: number; p99: number };

type Options = {
  port: number;
  path: string;
  concurrency: number;
  seconds: number;
  /** Per client: each client may carry its own API key (the API limits each key to 100 requests/s). */
  headers: (client: number) => Record<string, string>;
  body: (n: number) => string;
  /** Status codes that count as success. */
  expect: number[];
};

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Closed-loop load: `concurrency` clients, each sending its next request as soon as the previous
 * answer arrives, over keep-alive connections, for a fixed time. Bounded in count and time, loopback only.
 */
export async function runLoad(options: Options): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency });
  const latencies: number[] = [];
  let errors = 0;
  let sequence = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const started = performance.now();

  const send = (body: string, headers: Record<string, string>) =>
    new Promise<number>((resolve) => {
      const request = http.request(
        { host: "127.0.0.1", port: options.port, path: options.path, method: "POST", agent, headers: { ...headers, "content-length": Buffer.byteLength(body) } },
        (response) => {
          response.resume();
          response.on("end", () => resolve(response.statusCode ?? 0));
        },
      );
      request.on("error", () => resolve(0));
      request.setTimeout(10_000, () => request.destroy());
      request.end(body);
    });

  const client = async (index: number) => {
    const headers = options.headers(index);
    while (performance.now() < deadline && sequence < 1_000_000) {
      const body = options.body(sequence++);
      const t0 = performance.now();
      const status = await send(body, headers);
      latencies.push(performance.now() - t0);
      if (!options.expect.includes(status)) errors++;
    }
  };
  await Promise.all(Array.from({ length: options.concurrency }, (_, index) => client(index)));
  agent.destroy();
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    errors,
    seconds,
    throughput: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}
