import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { send, type BadAnswer } from "./support/bad-input";

/**
 * A POST with a valid `Next-Action` id and a body that is no server action call (empty, `null`,
 * text, a truncated multipart, the wrong content type) made Next's own decoding throw: a 500 and
 * a stack trace in the log. server.ts checks such bodies first (server/form-post-guard.ts): 400
 * and one log line, while the page's real action, sent as the browser sent it, still works.
 */
const ORIGIN = `http://127.0.0.1:${process.env.E2E_PORT ?? 3107}`;
const REFUSED = "not a server action call";
const LOG_LINE = "POST body refused before Next";

/** What the server wrote to its log since `sizes` was taken (lib/e2e-record.ts keeps it, at info level). */
function logFiles(): string[] {
  const dir = process.env.E2E_RECORD_DIR ?? "";
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => /^server-\d+\.log$/.test(name))
        .map((name) => path.join(dir, name))
    : [];
}
const logSizes = () => new Map(logFiles().map((file) => [file, fs.statSync(file).size]));
const logSince = (sizes: Map<string, number>) =>
  logFiles()
    .map((file) =>
      fs
        .readFileSync(file)
        .subarray(sizes.get(file) ?? 0)
        .toString("utf8"),
    )
    .join("");

const multipart = (parts: string) => ({ contentType: "multipart/form-data; boundary=x", body: parts });
const BODIES: { name: string; contentType?: string; body: string; says?: string }[] = [
  { name: "an empty body", contentType: "text/plain;charset=UTF-8", body: "" },
  { name: "null", contentType: "text/plain;charset=UTF-8", body: "null" },
  { name: "text that is not JSON", contentType: "text/plain;charset=UTF-8", body: "garbage" },
  { name: "JSON cut short", contentType: "text/plain;charset=UTF-8", body: '["a' },
  { name: "a JSON object under the wrong content type", contentType: "application/json", body: '{"email":"a@b.c"}' },
  { name: "a form-encoded body", contentType: "application/x-www-form-urlencoded", body: "email=a%40b.c" },
  { name: "no content type", body: "null" },
  { name: "a multipart body without the arguments field", ...multipart('--x\r\nContent-Disposition: form-data; name="1"\r\n\r\n[]\r\n--x--\r\n') },
  { name: "a multipart body whose arguments are not a list", ...multipart('--x\r\nContent-Disposition: form-data; name="0"\r\n\r\nnull\r\n--x--\r\n') },
  { name: "a reference to a part the text body does not carry", contentType: "text/plain;charset=UTF-8", body: '["$Q1"]' },
  { name: "a plain reference to a missing part", contentType: "text/plain;charset=UTF-8", body: '[{"a":"$1"}]' },
  { name: "a Blob reference to a missing file", contentType: "text/plain;charset=UTF-8", body: '["$B1"]' },
  { name: "a BigInt over 300 digits", contentType: "text/plain;charset=UTF-8", body: `["$n${"9".repeat(301)}"]` },
  {
    name: "a multipart part that is no JSON",
    ...multipart('--x\r\nContent-Disposition: form-data; name="0"\r\n\r\n["$1"]\r\n--x\r\nContent-Disposition: form-data; name="1"\r\n\r\n{nope\r\n--x--\r\n'),
  },
  { name: "a truncated multipart body", ...multipart('--x\r\nContent-Disposition: form-data; name="0"\r\n\r\n["a'), says: "not valid multipart/form-data" },
];

test("a server action POST whose body is no action call answers 400 with one log line and no stack trace; the real call still works", async ({ page }) => {
  // Record the sign-in form's action as the browser sends it: a valid action id and its headers.
  await page.goto("/sign-in");
  const recorded = page.waitForRequest((r) => r.method() === "POST" && Boolean(r.headers()["next-action"]));
  await page.getByLabel("E-mail").fill("nobody@example.com");
  await page.getByLabel("Password").fill("not-the-password-1");
  await page.getByRole("button", { name: "Sign in" }).click();
  const request = await recorded;
  const headers = Object.fromEntries(
    Object.entries(await request.allHeaders()).filter(
      ([name]) => !["cookie", "content-length", "content-type", "host", "connection"].includes(name) && !name.startsWith(":"),
    ),
  );
  expect(headers["next-action"]).toMatch(/^[0-9a-f]{20,}$/);
  const path = new URL(request.url()).pathname;

  const sizes = logSizes();
  for (const { name, contentType, body, says } of BODIES) {
    const answer: BadAnswer = await send(
      ORIGIN,
      { method: "POST", path, headers: { ...headers, ...(contentType ? { "content-type": contentType } : {}) }, body },
      10_000,
    );
    expect("status" in answer ? answer.status : answer, name).toBe(400);
    if ("text" in answer) expect(answer.text, name).toContain(says ?? REFUSED);
  }

  // The call the browser made, sent again as it was: Next runs the action (a wrong password is its answer, not the guard's).
  const real = await send(
    ORIGIN,
    { method: "POST", path, headers: { ...headers, "content-type": (await request.allHeaders())["content-type"] ?? "" }, body: request.postData() ?? "" },
    10_000,
  );
  expect("status" in real ? real.status : real).toBe(200);
  if ("text" in real) expect(real.text).not.toContain(REFUSED);

  // lib/e2e-record.ts copies the server's stderr: one line per refusal, no stack frames.
  expect(logFiles().length, "playwright.config.ts sets E2E_RECORD_DIR").toBeGreaterThan(0);
  await expect
    .poll(
      () =>
        logSince(sizes)
          .split("\n")
          .filter((line) => line.includes(LOG_LINE)).length,
    )
    .toBe(BODIES.length);
  expect(logSince(sizes)).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
});
