import fs from "node:fs";
import path from "node:path";
import { TEST_CARDS } from "../../lib/sandbox/cards";
import { PASSWORD } from "./accounts";
import { cardSecrets, type Secret } from "./leak-scan";

/** Card numbers the specs type that are not sandbox test cards (invoices.ui, the payout specs). */
const OTHER_CARDS = ["4111111111111111", "5555555555554444"];
/** e2e/support/app-server.ts's second servers (jobs-restart.ui.spec.ts) sign sessions with this. */
const APP_SERVER_AUTH_SECRET = "restart-e2e-secret-0123456789abcdef";

/** The secret files a server keeps in its data directory: the vault key (base64 text), the session secret (raw bytes, used as base64). */
const SECRET_FILES: Record<string, (bytes: Buffer) => string> = {
  "credentials.key": (bytes) => bytes.toString("utf8").trim(),
  "auth.secret": (bytes) => bytes.toString("base64"),
};

function secretFiles(dir: string, depth = 0): string[] {
  if (depth > 4 || !fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "pglite" || entry.name === "record" ? [] : secretFiles(full, depth + 1);
    return entry.name in SECRET_FILES ? [full] : [];
  });
}

/** The vault key the run's server generated in its data directory. */
export function runVaultKey(dataDir: string): Buffer {
  return Buffer.from(fs.readFileSync(path.join(dataDir, "credentials.key"), "utf8").trim(), "base64");
}

/** Secrets the run is configured with or generated at start: session signing secrets, vault keys, the specs' password, card numbers. */
export function givenSecrets(dataDir: string): Secret[] {
  const authSecret = process.env.E2E_AUTH_SECRET;
  if (!authSecret) throw new Error("E2E_AUTH_SECRET is not set (playwright.config.ts sets it)");
  return [
    { value: authSecret, kind: "secret", source: "AUTH_SECRET" },
    { value: APP_SERVER_AUTH_SECRET, kind: "secret", source: "app-server AUTH_SECRET" },
    ...secretFiles(dataDir).map((file): Secret => ({
      value: SECRET_FILES[path.basename(file)]!(fs.readFileSync(file)),
      kind: "secret",
      source: path.relative(dataDir, file),
    })),
    { value: PASSWORD, kind: "secret", source: "the specs' PASSWORD" },
    ...cardSecrets(
      TEST_CARDS.map((card) => card.number),
      "sandbox test card",
    ),
    ...cardSecrets(OTHER_CARDS, "card number in a spec"),
  ];
}
