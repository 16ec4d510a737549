import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressBody, pickEncoding } from "./content-encoding";

/** The files the app serves itself (the hosted page's stylesheet and script) go compressed to browsers that accept it. */
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

describe("compressBody", () => {
  const body = new TextEncoder().encode("body { color: #0f172a; }\n".repeat(400));

  it("compresses with brotli and gzip, byte for byte the body once decoded", async () => {
    const br = await compressBody(body, "br");
    expect(br.length).toBeLessThan(body.length / 4);
    expect(Buffer.from(brotliDecompressSync(br)).equals(Buffer.from(body))).toBe(true);
    const gz = await compressBody(body, "gzip");
    expect(gz.length).toBeLessThan(body.length / 4);
    expect(Buffer.from(gunzipSync(gz)).equals(Buffer.from(body))).toBe(true);
  });
});
