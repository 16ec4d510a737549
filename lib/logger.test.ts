import { afterEach, describe, expect, it, vi } from "vitest";
import { flushLog, logger, redact } from "./logger";

describe("log redaction", () => {
  it("hides values under secret-looking keys at any depth", () => {
    expect(redact({ a: { secret_key: "dev_sec_abc", shop_password: "pw", label: "Main" } })).toEqual({
      a: { secret_key: "[redacted]", shop_password: "[redacted]", label: "Main" },
    });
  });

  it("masks card numbers inside strings, keeping first six and last four", () => {
    expect(redact("card 4111111111111111 declined")).toBe("card 411111******1111 declined");
  });

  it("keeps an error's name and message only", () => {
    expect(redact(new TypeError("bad 5555555555554444"))).toEqual({ name: "TypeError", message: "bad 555555******4444" });
  });

  it("drops a failed query's parameters and keeps the database error code", () => {
    const error = Object.assign(new Error('Failed query: insert into "users" values ($1, $2)\nparams: ada@example.com,$2b$11$hash'), {
      cause: { code: "23505" },
    });
    expect(redact(error)).toEqual({ name: "Error", message: 'Failed query: insert into "users" values ($1, $2)', code: "23505" });
  });
});

describe("log lines", () => {
  afterEach(() => vi.restoreAllMocks());

  it("mask a card number written into the message itself, not only in the fields", () => {
    const lines: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    vi.stubEnv("LOG_LEVEL", "info");
    logger.info("paying with 4111111111111111", { card: "5555555555554444" });
    flushLog();
    vi.unstubAllEnvs();
    expect(lines.join("")).not.toMatch(/4111111111111111|5555555555554444/);
    expect(JSON.parse(lines[0]!)).toMatchObject({ message: "paying with 411111******1111", card: "555555******4444" });
  });
});

describe("card numbers in other shapes", () => {
  it("masks numbers written in groups with spaces or dashes, and numbers sent as JSON numbers", () => {
    expect(redact("card 4242 4242 4242 4242 used")).toBe("card 424242******4242 used");
    expect(redact("card 5555-5555-5555-4444")).toBe("card 555555******4444");
    expect(redact({ pan: 4111111111111111 })).toEqual({ pan: "411111******1111" });
    // Short digit runs (amounts, phone numbers, dates) stay as they are.
    expect(redact("amount 1250.00 on 2026-11-24, call +380 44 123 4567")).toBe("amount 1250.00 on 2026-11-24, call +380 44 123 4567");
    expect(redact({ amount: 125000 })).toEqual({ amount: 125000 });
  });
});
