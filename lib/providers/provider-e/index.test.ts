import { describe, expect, it } from "vitest";
import { checkCredentials, credentialsSchema, getKind, validateCredentials } from "../index";
import { sampleCredentials } from "../server/sample-credentials";

const kind = getKind("provider-e", "h2h");
if (kind === undefined) throw new Error("Provider E missing");
const sample = sampleCredentials("provider-e", "h2h", "test");
const { private_key: _privateKey, ...withoutPrivateKey } = sample;

describe("spec 5.1 note 5: Provider E private key or generated key pair", () => {
  it("reports a missing private key when no pair was generated", () => {
    expect(credentialsSchema(kind).safeParse(withoutPrivateKey).success).toBe(true);
    expect(checkCredentials(kind, withoutPrivateKey, "test")).toEqual([
      {
        code: "required",
        path: ["private_key"],
        message: "Private key is required: upload your private key or generate a key pair in the dashboard",
      },
    ]);
  });

  it("accepts a generated key id instead of an uploaded private key", () => {
    const values = { ...withoutPrivateKey, generated_key_id: "kp_01HZX" };
    expect(validateCredentials(kind, values, "test")).toMatchObject({ ok: true });
  });

  it("keeps the stored private key on update when the field is blank", () => {
    expect(checkCredentials(kind, { ...withoutPrivateKey, private_key: "" }, "test", { forUpdate: true })).toEqual([]);
  });

  it("hides the generated key id from the form and keeps it optional", () => {
    const field = kind.fields.find((candidate) => candidate.id === "generated_key_id");
    expect(field).toMatchObject({ hidden: true, required: false, secret: false });
  });

  it("explains ignore_callback in terms of reconciliation (spec 6)", () => {
    const field = kind.fields.find((candidate) => candidate.id === "ignore_callback");
    expect(field?.input).toBe("toggle");
    expect(field?.help).toMatch(/status request \(reconciliation\)/);
  });
});
