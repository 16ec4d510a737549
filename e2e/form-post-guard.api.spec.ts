import http from "node:http";
import { expect, test } from "@playwright/test";

/**
 * Next reads a multipart POST to a page as a form sent without JavaScript and answered a
 * malformed body with a 500 (found by the bad-input suite). server.ts checks such bodies first
 * (server/form-post-guard.ts): malformed answers 400, too large 413, well-formed goes on to Next.
 */
const BASE = new URL(`http://127.0.0.1:${process.env.E2E_PORT ?? 3107}`);

function post(path: string, contentType: string, body: Buffer | string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: BASE.hostname, port: BASE.port, method: "POST", path, headers: { "content-type": contentType } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: text }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

// The last two reach the sign-in page through dot segments under /api, which Next resolves before routing.
const PAGES = ["/sign-in", "/sign-up", "/home", "/invoices", "/pay/cpi_doesnotexist", "/nothing/here", "/api/../sign-in", "/api/%2e%2e/sign-in"];

for (const path of PAGES) {
  test(`a malformed multipart body posted to ${path} answers 400, not 500`, async () => {
    for (const body of ["", "garbage", "--x\r\nContent-Disposition: form-data\r\n\r\nvalue", "--y\r\n\r\n--y--"]) {
      const answer = await post(path, "multipart/form-data; boundary=x", body);
      expect(answer.status, `${path} with ${JSON.stringify(body)}`).toBe(400);
      expect(answer.body).toContain("not valid multipart/form-data");
    }
    const noBoundary = await post(path, "multipart/form-data", "a=b");
    expect(noBoundary.status).toBe(400);
  });
}

test("a well-formed multipart post to a page still reaches Next, and an oversized one answers 413", async () => {
  const boundary = "----formboundary7MA4YWxkTrZu0gW";
  const form = `--${boundary}\r\nContent-Disposition: form-data; name="email"\r\n\r\nsomeone@example.com\r\n--${boundary}--\r\n`;
  // Next's own answer to a form post that names no server action: a 400 of its own, not the guard's.
  const answer = await post("/sign-in", `multipart/form-data; boundary=${boundary}`, form);
  expect(answer.status).toBe(400);
  expect(answer.body).toContain("Invalid Server Action request");
  expect(answer.body).not.toContain("multipart");

  const big = `--x\r\nContent-Disposition: form-data; name="blob"\r\n\r\n${"a".repeat(700 * 1024)}\r\n--x--\r\n`;
  const tooLarge = await post("/sign-in", "multipart/form-data; boundary=x", big);
  expect(tooLarge.status).toBe(413);
});
