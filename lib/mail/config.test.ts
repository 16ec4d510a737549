import { afterEach, describe, expect, it, vi } from "vitest";
import { outboxPageEnabled } from "./config";
import { redactLinks } from "./redact";

afterEach(() => vi.unstubAllEnvs());

describe("the outbox page (lib/mail/config.ts)", () => {
  it("is served without SMTP_URL outside production, or in production only with MAIL_OUTBOX_PAGE=1", () => {
    vi.stubEnv("SMTP_URL", "");
    vi.stubEnv("NODE_ENV", "development");
    expect(outboxPageEnabled()).toBe(true);
    vi.stubEnv("NODE_ENV", "production");
    expect(outboxPageEnabled()).toBe(false);
    vi.stubEnv("MAIL_OUTBOX_PAGE", "1");
    expect(outboxPageEnabled()).toBe(true);
  });

  it("is never served when mail really leaves through SMTP_URL", () => {
    vi.stubEnv("SMTP_URL", "smtp://127.0.0.1:2525");
    vi.stubEnv("MAIL_OUTBOX_PAGE", "1");
    vi.stubEnv("NODE_ENV", "development");
    expect(outboxPageEnabled()).toBe(false);
  });
});

describe("redactLinks", () => {
  it("removes every link, whatever its scheme case or position", () => {
    const text = "Reset: https://po.example/reset-password/abc_DEF-123 now\nor http://localhost:3000/invite/xyz.";
    expect(redactLinks(text)).toBe("Reset: [link redacted] now\nor [link redacted]");
  });
});
