import "server-only";
export { decryptJson, decryptSecret, encryptJson, encryptSecret, keyId, sealedKeyId } from "./crypto-box";
export { keyringOf } from "./keyring";
export { loadCredentialsKey } from "./load-credentials-key";
export { maskSecret } from "./mask-secret";
export { isVaultError } from "./vault-error";
