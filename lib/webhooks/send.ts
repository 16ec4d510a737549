import "server-only";
import http from "node:http";
import https from "node:https";
import { checkWebhookUrl, guardedLookup, problemsText } from "@/lib/http/url-check";

/** Success is any 2xx within this time (REFERENCE "Webhooks to the merchant"). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** How much of the receiver's answer is kept and shown. */
const EXCERPT_BYTES = 1024;
export const USER_AGENT = "PaymentOrchestrator-Webhooks/1.0";

export type SendOutcome = {
  succeeded: boolean;
  statusCode: number | null;
  durationMs: number;
  /** The first 1 KiB of the answer's body (as text), null when no answer came. */
  excerpt: string | null;
  /** Why no answer came (refused URL, connection error, timeout); never contains a secret. */
  error: string | null;
};

/** Text PostgreSQL can store and a page can show: no NUL characters. */
function storableText(text: string): string {
  return text.replace(/\u0000/g, "\uFFFD");
}

/**
 * One POST to the merchant's callback URL: the URL is checked again now (scheme and addresses),
 * the socket connects only to an address the guarded lookup let through, redirects are not
 * followed (a 3xx is a failed try), and the whole exchange is cut at 10 s. Never throws.
 */
export async function postWebhook(url: string, rawBody: string, headers: Record<string, string>): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.max(0, Math.round(performance.now() - started));
  const checked = await checkWebhookUrl(url);
  if (!checked.ok) return { succeeded: false, statusCode: null, durationMs: elapsed(), excerpt: null, error: `Not sent: ${problemsText(checked.problems)}` };
  const target = checked.value;
  const transport = target.protocol === "https:" ? https : http;

  return new Promise<SendOutcome>((resolve) => {
    let settled = false;
    /** Set once the answer's head arrives: a 2xx whose body is still streaming at 10 s counts as answered in time. */
    let answered: (() => void) | undefined;
    const finish = (outcome: Omit<SendOutcome, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const request = transport.request(
      target,
      {
        method: "POST",
        lookup: guardedLookup as unknown as typeof import("node:dns").lookup,
        headers: { ...headers, "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(rawBody)), "User-Agent": USER_AGENT },
        agent: false,
      },
      (response) => {
        const statusCode = response.statusCode ?? null;
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () => {
          const excerpt = storableText(Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8"));
          finish({ succeeded: statusCode !== null && statusCode >= 200 && statusCode < 300, statusCode, excerpt, error: null });
          response.destroy();
        };
        answered = done;
        response.on("data", (chunk: Buffer) => {
          if (kept < EXCERPT_BYTES) {
            chunks.push(chunk);
            kept += chunk.length;
          }
          // Enough to show: the rest of a long answer is not waited for.
          if (kept >= EXCERPT_BYTES) done();
        });
        response.on("end", done);
        response.on("error", done);
      },
    );
    const timer = setTimeout(() => {
      if (answered) return answered();
      finish({ succeeded: false, statusCode: null, excerpt: null, error: `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s.` });
      request.destroy();
    }, DELIVERY_TIMEOUT_MS);
    request.on("error", (error: NodeJS.ErrnoException) => {
      const reason =
        error.code === "EWEBHOOKBLOCKED" ? `Not sent: ${error.message}` : `Connection failed: ${error.code ? `${error.code} ` : ""}${error.message}`;
      finish({ succeeded: false, statusCode: null, excerpt: null, error: storableText(reason).slice(0, 500) });
    });
    request.end(rawBody);
  });
}
