import "server-only";

export type VaultErrorCode =
  | "invalid_key"
  | "malformed_token"
  | "unsupported_version"
  | "decrypt_failed"
  /** A v2 token names a key id that is neither CREDENTIALS_KEY nor in CREDENTIALS_KEY_PREVIOUS. */
  | "unknown_key"
  | "invalid_json";

/**
 * Every vault failure surfaces as this type. Messages are fixed strings chosen here,
 * so neither plaintext nor key material can leak into logs through them.
 */
export class VaultError extends Error {
  readonly code: VaultErrorCode;

  constructor(code: VaultErrorCode, message: string) {
    super(message);
    this.name = "VaultError";
    this.code = code;
  }
}

export function isVaultError(error: unknown): error is VaultError {
  return error instanceof VaultError;
}
