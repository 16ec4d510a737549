import "server-only";
export { decryptJson, decryptSecret, encryptJson, encryptSecret, keyId, resealSecret, sealedKeyId } from "./crypto-box";
export { attachPreviousKeys, keyringOf, type CredentialsKeyring, type VaultKeys } from "./keyring";
export { keyFilePath, loadCredentialsKey, loadCredentialsKeyring, type LoadCredentialsKeyOptions } from "./load-credentials-key";
export { maskSecret } from "./mask-secret";
export { isVaultError, VaultError, type VaultErrorCode } from "./vault-error";
