import "server-only";
export { decryptJson, decryptSecret, encryptJson, encryptSecret } from "./crypto-box";
export { keyFilePath, loadCredentialsKey, type LoadCredentialsKeyOptions } from "./load-credentials-key";
export { maskSecret } from "./mask-secret";
export { isVaultError, VaultError, type VaultErrorCode } from "./vault-error";
