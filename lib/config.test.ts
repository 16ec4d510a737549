import { describe, expect, it } from "vitest";
import { checkPublicBaseUrl, isLoopbackHost, metricsSettings } from "./config";

describe("APP_URL when npm start starts (checkPublicBaseUrl with the address server.ts listens on)", () => {
  it("lets a server on loopback alone keep the localhost default, or any http(s) APP_URL", () => {
    const cases: [string, Record<string, string>][] = [
      ["127.0.0.1", {}],
      ["localhost", { APP_URL: "http://localhost:3000" }],
      ["::1", { APP_URL: "https://127.0.0.1:3000" }],
      ["127.0.0.1", { TRUST_PROXY_HOPS: "1", APP_URL: "http://127.0.0.1:3000" }],
    ];
    for (const [listen, env] of cases) expect(() => checkPublicBaseUrl(listen, env), `${listen} ${JSON.stringify(env)}`).not.toThrow();
  });

  it("lets a server others reach start with a public https APP_URL", () => {
    expect(() => checkPublicBaseUrl("0.0.0.0", { APP_URL: "https://pay.example.com" })).not.toThrow();
    expect(() => checkPublicBaseUrl("10.0.0.7", { APP_URL: "https://pay.example.com/shop/", TRUST_PROXY_HOPS: "1" })).not.toThrow();
  });

  it.each([
    ["0.0.0.0", {}, /APP_URL is not set, and the server listens on 0\.0\.0\.0, where others reach it/],
    ["", {}, /APP_URL is not set, and the server listens on every interface, where others reach it/],
    ["127.0.0.1", { TRUST_PROXY_HOPS: "2" }, /APP_URL is not set, and TRUST_PROXY_HOPS says a proxy brings others to this server/],
    ["0.0.0.0", { APP_URL: "http://pay.example.com" }, /APP_URL must be https:\/\/ on a server others reach .*got "http:\/\/pay\.example\.com"/],
    ["192.168.1.5", { APP_URL: "https://localhost:3000" }, /APP_URL names a loopback address \(localhost\)/],
    ["0.0.0.0", { APP_URL: "https://127.0.0.1" }, /APP_URL names a loopback address \(127\.0\.0\.1\)/],
    ["127.0.0.1", { APP_URL: "pay.example.com" }, /APP_URL must be an https:\/\/ address such as https:\/\/pay\.example\.com, got "pay\.example\.com"/],
    ["127.0.0.1", { APP_URL: "ftp://pay.example.com" }, /APP_URL must be an https:\/\/ address .*got "ftp:\/\/pay\.example\.com"/],
    ["127.0.0.1", { APP_URL: "https://user:pw@pay.example.com" }, /no user, query or fragment/],
  ])("refuses listening on %j with %j, naming APP_URL", (listen, env, message) => {
    expect(() => checkPublicBaseUrl(listen, env)).toThrow(message);
  });

  it("knows the loopback hosts", () => {
    for (const host of ["localhost", "LOCALHOST", "127.0.0.1", "127.3.2.1", "::1", "[::1]"]) expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ["", "0.0.0.0", "10.0.0.1", "pay.example.com", "localhost.example.com", "128.0.0.1"]) expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe("who may read /metrics (metricsSettings)", () => {
  const token = "t".repeat(32);

  it("serves nothing without METRICS_TOKEN or METRICS_PORT, and listens on loopback by default", () => {
    expect(metricsSettings({})).toEqual({ host: "127.0.0.1" });
    expect(metricsSettings({ METRICS_TOKEN: "  ", METRICS_PORT: "" })).toEqual({ host: "127.0.0.1" });
  });

  it("takes a long token, a port of its own and a host", () => {
    expect(metricsSettings({ METRICS_TOKEN: ` ${token} ` })).toEqual({ token, host: "127.0.0.1" });
    expect(metricsSettings({ METRICS_PORT: "9464", METRICS_HOST: "10.0.0.5" })).toEqual({ port: 9464, host: "10.0.0.5" });
    expect(metricsSettings({ METRICS_TOKEN: token, METRICS_PORT: "9464", PORT: "8080" })).toEqual({ token, port: 9464, host: "127.0.0.1" });
  });

  it.each([
    [{ METRICS_TOKEN: "short" }, /METRICS_TOKEN must be at least 32 characters \(got 5\)/],
    [{ METRICS_PORT: "abc" }, /METRICS_PORT must be a port number from 1 to 65535, got "abc"/],
    [{ METRICS_PORT: "0" }, /METRICS_PORT must be a port number/],
    [{ METRICS_PORT: "70000" }, /METRICS_PORT must be a port number/],
    [{ METRICS_PORT: "9.5" }, /METRICS_PORT must be a port number/],
    [{ METRICS_PORT: "3000" }, /METRICS_PORT must differ from PORT \(3000\)/],
    [{ METRICS_PORT: "8080", PORT: "8080" }, /METRICS_PORT must differ from PORT \(8080\)/],
  ])("refuses %j, naming the variable", (env, message) => {
    expect(() => metricsSettings(env)).toThrow(message);
  });
});
