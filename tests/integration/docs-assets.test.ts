import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/api/docs-assets/[version]/[file]/route";
import { swaggerUiAssetHandler } from "@/app/api/docs-assets/swagger-ui-dist";
import { pickEncoding } from "@/lib/http/content-encoding";
import { serveDocsAsset } from "@/server/serve-docs-assets";

/** The API reference's Swagger UI files go compressed to browsers that accept it. */
const dist = path.join(process.cwd(), "node_modules/swagger-ui-dist");
const version = (JSON.parse(fs.readFileSync(path.join(dist, "package.json"), "utf8")) as { version: string }).version;
const bundle = fs.readFileSync(path.join(dist, "swagger-ui-bundle.js"));
const css = fs.readFileSync(path.join(dist, "swagger-ui.css"));
const compressing = swaggerUiAssetHandler({ compress: true });

function get(handler: typeof GET, file: string, acceptEncoding?: string) {
  const headers: Record<string, string> = acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding };
  return handler(new Request(`http://localhost/api/docs-assets/${version}/${file}`, { headers }), { params: Promise.resolve({ version, file }) });
}

describe("pickEncoding", () => {
  it.each([
    [null, "identity"],
    ["", "identity"],
    ["gzip, deflate, br, zstd", "br"],
    ["gzip, deflate", "gzip"],
    ["br;q=0, gzip;q=0.5", "gzip"],
    ["BR", "br"],
    ["identity", "identity"],
    ["deflate", "identity"],
    ["*", "br"],
    ["*;q=0, gzip", "gzip"],
    ["gzip;q=0, br;q=0", "identity"],
    ["gzip;q=junk", "identity"],
  ])("Accept-Encoding %j answers %s", (header, expected) => {
    expect(pickEncoding(header)).toBe(expected);
  });
});

describe("the compressing handler (npm start's path)", () => {
  it("sends the bundle brotli-compressed to a browser that accepts br, byte for byte the file once decoded", async () => {
    const response = await get(compressing, "swagger-ui-bundle.js", "gzip, deflate, br, zstd");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get("content-length")).toBe(String(body.length));
    expect(body.length).toBeLessThan(bundle.length / 4);
    expect(brotliDecompressSync(body).equals(bundle)).toBe(true);
  });

  it("sends gzip when br is not accepted, and the same bytes on a second request (compressed once)", async () => {
    const first = Buffer.from(await (await get(compressing, "swagger-ui.css", "gzip, deflate")).arrayBuffer());
    const second = await get(compressing, "swagger-ui.css", "gzip");
    expect(second.headers.get("content-encoding")).toBe("gzip");
    const body = Buffer.from(await second.arrayBuffer());
    expect(body.equals(first)).toBe(true);
    expect(body.length).toBeLessThan(css.length / 4);
    expect(gunzipSync(body).equals(css)).toBe(true);
  });

  it("sends the file as it is when no compression is accepted", async () => {
    for (const accept of [undefined, "identity", "br;q=0, gzip;q=0"]) {
      const response = await get(compressing, "swagger-ui-bundle.js", accept);
      expect(response.headers.get("content-encoding"), String(accept)).toBeNull();
      expect(response.headers.get("vary")).toBe("Accept-Encoding");
      expect(Buffer.from(await response.arrayBuffer()).equals(bundle)).toBe(true);
    }
  });

  it("still refuses files outside the allowlist, whatever the encoding", async () => {
    const response = await get(compressing, "package.json", "br");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-encoding")).toBeNull();
  });
});

describe("the route module Next calls (next dev), whose Content-Encoding Next would drop", () => {
  it("answers the file as it is, whatever the browser accepts", async () => {
    const response = await get(GET, "swagger-ui-bundle.js", "gzip, deflate, br");
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(Buffer.from(await response.arrayBuffer()).equals(bundle)).toBe(true);
  });
});

describe("serveDocsAsset on a node:http server (as server.ts calls it)", () => {
  let server: http.Server;
  let port = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const pathname = new URL(req.url ?? "/", "http://localhost").pathname;
      void serveDocsAsset(req, res, pathname, "http://localhost").then((served) => {
        if (!served) res.writeHead(418).end("next");
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  function raw(pathname: string, method = "GET", acceptEncoding = "gzip, deflate, br"): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const request = http.request({ port, host: "127.0.0.1", path: pathname, method, headers: { "accept-encoding": acceptEncoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      });
      request.on("error", reject);
      request.end();
    });
  }

  it("writes the compressed bundle with its Content-Encoding", async () => {
    const answer = await raw(`/api/docs-assets/${version}/swagger-ui-bundle.js`);
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(answer.body).equals(bundle)).toBe(true);
    const gzipped = await raw(`/api/docs-assets/${version}/swagger-ui.css`, "GET", "gzip");
    expect(gzipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzipped.body).equals(css)).toBe(true);
  });

  it("refuses other files and versions with 404, and leaves other paths and methods to Next", async () => {
    for (const pathname of [`/api/docs-assets/0.0.1/swagger-ui-bundle.js`, `/api/docs-assets/${version}/package.json`, `/api/docs-assets/${version}/..%2Fpackage.json`]) {
      expect((await raw(pathname)).status, pathname).toBe(404);
    }
    expect((await raw(`/api/docs-assets/${version}/swagger-ui-bundle.js`, "POST")).status).toBe(418);
    expect((await raw(`/api/docs-assets/${version}/a/b`)).status).toBe(418);
    expect((await raw(`/api/commerce/openapi.json`)).status).toBe(418);
  });
});
