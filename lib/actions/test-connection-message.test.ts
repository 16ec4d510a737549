import { describe, expect, it } from "vitest";
import { describeHealth } from "./test-connection-message";

describe("describeHealth (Test connection)", () => {
  it("says reachable and accepted", () => {
    expect(describeHealth({ kind: "ok", message: "fine" }, "provider-b", "h2h")).toEqual({ kind: "ok", message: "Reachable — credentials accepted" });
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
    expect(describeHealth({ kind: "credentials_refused", message: "no" }, "provider-e", "h2h").message).toBe("Credentials refused — check the credentials");
  });

  it("names the credentials a provider refuses together when the refusal blames none of them alone", () => {
    expect(describeHealth({ kind: "credentials_refused", message: "no" }, "provider-c", "h2h")).toEqual({
      kind: "credentials_refused",
      message: "Credentials refused — check Shop login and Shop password",
    });
    expect(describeHealth({ kind: "credentials_refused", message: "no" }, "provider-c", "provider_account").message).toBe(
      "Credentials refused — check Shop login and Shop password",
    );
  });

  it("gives the reason it is unreachable", () => {
    expect(describeHealth({ kind: "unreachable", message: "connection refused" }, "provider-c", "h2h").message).toBe("Unreachable — connection refused");
  });
});
