import type { parseArgs as ParseArgs } from "node:util";
import { createApiKey } from "@/lib/api-keys/queries";
import { signUpSchema } from "@/lib/identity/schemas";
import { closeDb, getDb, type Db } from "@/lib/db/client";
import { problemsFromZod, type Problem } from "@/lib/problems";
import { createMerchantWithOwner } from "@/lib/merchants/queries";
import { stopJobs } from "@/lib/jobs/queue";
import { resetMfaByOperator } from "@/lib/identity/mfa/service";
import { rotateCredentialsKeyCommand } from "./rotate-credentials-key";
import { seedDemo } from "./seed-demo";
import { rebuildRollups } from "@/lib/analytics/rollups";

type Output = Record<string, unknown>;

function describeProblems(problems: readonly Problem[]): string {
  return problems.map((p) => `${p.path.join(".")}: ${p.message}`).join("; ");
}

async function createMerchantCommand(db: Db, values: Record<string, string | undefined>): Promise<Output> {
  const parsed = signUpSchema.safeParse({
    email: values.email,
    password: values.password,
    commerceAccount: values["commerce-account"],
    name: values.name ?? values.email?.split("@")[0] ?? "",
    merchantName: values["merchant-name"] ?? values["commerce-account"] ?? "",
  });
  if (!parsed.success) {
    throw new Error(describeProblems(problemsFromZod(parsed.error.issues)));
  }
  const created = await createMerchantWithOwner(db, parsed.data);
  if (!created.ok) throw new Error(describeProblems(created.problems));
  const { key } = await createApiKey(db, { merchantId: created.value.merchant.id, name: "Created by admin command" });
  return { merchantId: created.value.merchant.id, commerceAccount: created.value.merchant.commerceAccount, apiKey: key };
}

/** Two-factor off for someone locked out (lost phone and recovery codes); their sessions end. */
export async function resetTwoFactorCommand(db: Db, values: Record<string, string | undefined>): Promise<Output> {
  if (!values.email) throw new Error("reset-two-factor needs --email E");
  const reset = await resetMfaByOperator(db, values.email);
  if (!reset) throw new Error(`No one signs in with ${values.email}`);
  return { userId: reset.userId, twoFactor: "off", wasEnabled: reset.wasEnabled };
}

const USAGE =
  "usage: npm run admin -- create-merchant --email E --password P --commerce-account NAME [--name N] [--merchant-name M] | seed-demo [--reset] | rotate-credentials-key [--status] | reset-two-factor --email E | rebuild-rollups [--merchant ID]";

const COMMANDS = ["create-merchant", "seed-demo", "rotate-credentials-key", "reset-two-factor", "rebuild-rollups"] as const;
type Command = (typeof COMMANDS)[number];

/** Which options each command takes; any other option is refused with the command named. */
const OPTIONS_OF: Record<Command, readonly string[]> = {
  "create-merchant": ["email", "password", "commerce-account", "name", "merchant-name"],
  "seed-demo": ["reset"],
  "rotate-credentials-key": ["status"],
  "reset-two-factor": ["email"],
  "rebuild-rollups": ["merchant"],
};

export async function runAdmin(argv: string[], parseArgs: typeof ParseArgs): Promise<Output> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: "string" },
      password: { type: "string" },
      "commerce-account": { type: "string" },
      name: { type: "string" },
      "merchant-name": { type: "string" },
      reset: { type: "boolean" },
      status: { type: "boolean" },
      merchant: { type: "string" },
    },
    strict: true,
  });
  if (!COMMANDS.includes(command as Command)) throw new Error(USAGE);
  const chosen = command as Command;
  const extra = Object.keys(values).find((flag) => values[flag as keyof typeof values] !== undefined && !OPTIONS_OF[chosen].includes(flag));
  if (extra === "reset") throw new Error(`--reset belongs to seed-demo only. ${USAGE}`);
  if (extra && chosen === "seed-demo") throw new Error(`--${extra} is not an option of seed-demo (it always seeds demo@example.com). ${USAGE}`);
  if (extra) throw new Error(`--${extra} is not an option of ${chosen}. ${USAGE}`);
  const db = await getDb();
  try {
    const { reset: _reset, status: _status, merchant: _merchant, ...fields } = values;
    if (chosen === "rebuild-rollups") {
      const started = performance.now();
      const result = await rebuildRollups(db, { merchantId: values.merchant });
      return { ...result, seconds: Math.round((performance.now() - started) / 100) / 10 };
    }
    if (chosen === "rotate-credentials-key") return await rotateCredentialsKeyCommand(db, { statusOnly: values.status === true });
    if (chosen === "reset-two-factor") return await resetTwoFactorCommand(db, fields);
    return chosen === "create-merchant" ? await createMerchantCommand(db, fields) : await seedDemo(db, { reset: values.reset === true });
  } finally {
    // Creating invoices and changing their status queue jobs through pg-boss on this database.
    await stopJobs(db);
    await closeDb();
  }
}
