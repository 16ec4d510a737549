import { describe, expect, it } from "vitest";
import { describeHealth, UNSAVED_CHECKED } from "./test-connection-message";

describe("describeHealth (Test connection)", () => {
  it("says reachable and accepted", () => {
    expect(describeHealth({ kind: "ok", message: "fine" }, "provider-b", "h2h")).toEqual({ kind: "ok", message: "Reachable — credentials accepted" });
  });

  it("for values not saved yet, says who accepted them, that they are not saved, and what was checked, in each mode", () => {
    expect(describeHealth({ kind: "ok", message: "fine" }, "provider-b", "h2h", { unsaved: true, mode: "test" })).toEqual({
      kind: "ok",
      message: "Reachable — the sandbox accepted these credentials (not saved yet)",
      detail: UNSAVED_CHECKED.test,
    });
    expect(describeHealth({ kind: "ok", message: "fine" }, "provider-b", "h2h", { unsaved: true, mode: "live" })).toEqual({
      kind: "ok",
      message: "Reachable — Provider B accepted these credentials (not saved yet)",
      detail: UNSAVED_CHECKED.live,
    });
    expect(UNSAVED_CHECKED.test).toMatch(/No sandbox account exists for them until you save/);
  });

  it("names the likely wrong credential by its form label", () => {
    expect(describeHealth({ kind: "credentials_refused", field: "secret_key", message: "no" }, "provider-b", "h2h")).toEqual({
      kind: "credentials_refused",
      message: "Credentials refused — check Secret key",
      field: "secret_key",
    });
    expect(describeHealth({ kind: "credentials_refused", field: "private_key", message: "no" }, "provider-a", "provider_account").message).toBe(
      "Credentials refused — check Private key",
    );
    expect(describeHealth({ kind: "credentials_refused", message: "no" }, "provider-x", "h2h").message).toBe("Credentials refused — check the credentials");
  });

  it("names the credentials a provider refuses together when the refusal blames none of them alone", () => {
    expect(describeHealth({ kind: "credentials_refused", message: "no" }, "provider-c", "h2h")).toEqual({
      kind: "credentials_refused",
      message: "Credentials refused — check Shop login and Shop password",
    });
    expect(describeHealth({ kind: "credentials_refused", message: "no" }, "provider-c", "provider_account").message).toBe(
      "Credentials refused — check Shop login and Shop password",
    );
    // Every sandbox answers one refusal for an unknown account and a wrong secret or signature.
    const refused = (provider: string, kind: string) => describeHealth({ kind: "credentials_refused", message: "no" }, provider, kind).message;
    expect(refused("provider-a", "provider_account")).toBe("Credentials refused — check Merchant ID and Private key");
    expect(refused("provider-a", "h2h")).toBe("Credentials refused — check Merchant ID and Private key");
    expect(refused("provider-b", "h2h")).toBe("Credentials refused — check Terminal ID and Secret key");
    expect(refused("provider-d", "h2h")).toBe("Credentials refused — check Merchant ID, API key and Secret key");
    expect(refused("provider-e", "h2h")).toBe("Credentials refused — check Merchant ID and Private key");
    expect(refused("provider-f", "h2h")).toBe("Credentials refused — check Public key and Secret key");
  });

  it("gives the reason it is unreachable", () => {
    expect(describeHealth({ kind: "unreachable", message: "connection refused" }, "provider-c", "h2h").message).toBe("Unreachable — connection refused");
  });
});
