import "server-only";
import { randomBytes } from "node:crypto";
import type { SandboxContext } from "@/lib/providers/kit/provider-server";
import type { SandboxAccount } from "@/lib/sandbox/accounts";

export const SLUG = "provider-a";

/** A request whose signature verified, with the account it proved. */
export type SignedRequest = { body: Record<string, unknown>; account: SandboxAccount; context: SandboxContext };

export const refuse = (status: number, code: string, message: string) => Response.json({ error: { code, message } }, { status });

export const invalidRequest = (issues: readonly { path: PropertyKey[]; message: string }[]) =>
  refuse(400, "invalid_request", issues.map((issue) => `${issue.path.map(String).join(".")}: ${issue.message}`).join("; "));

export function newReference(prefix: string): string {
  return `${prefix}-${randomBytes(9).toString("hex").toUpperCase()}`;
}
