import "server-only";

/**
 * The credentials keys of a process: `current` seals everything new; `previous` (from
 * CREDENTIALS_KEY_PREVIOUS, during a rotation) only opens what was sealed before.
 */
export type CredentialsKeyring = { readonly current: Buffer; readonly previous: readonly Buffer[] };

/** What the vault's functions take: a keyring, or a key Buffer (with the previous keys its loader attached, if any). */
export type VaultKeys = Buffer | CredentialsKeyring;

/**
 * The process's key is handed around as a Buffer (scopes, tests, derivations such as the card
 * fingerprint), so the loader attaches the previous keys to that very Buffer here: any caller
 * holding the current key opens values sealed under a previous one without knowing about rotation.
 */
const attached = new WeakMap<Buffer, CredentialsKeyring>();

export function attachPreviousKeys(current: Buffer, previous: readonly Buffer[]): CredentialsKeyring {
  const ring: CredentialsKeyring = Object.freeze({ current, previous: Object.freeze([...previous]) });
  attached.set(current, ring);
  return ring;
}

export function keyringOf(keys: VaultKeys): CredentialsKeyring {
  if (Buffer.isBuffer(keys)) return attached.get(keys) ?? { current: keys, previous: [] };
  return keys;
}
