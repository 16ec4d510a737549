import { eq } from "drizzle-orm";
import type { Db } from "@/lib/db/client";
import { merchants, users, type Role } from "@/lib/db/schema";
import { findUserByEmail, type Merchant, type Viewer } from "@/lib/identity/membership";
import { hashPassword } from "@/lib/identity/password";
import type { SignUpInput } from "@/lib/identity/schemas";
import { fail, ok, problem, type Problem, type Result } from "@/lib/problems";
import { newId } from "@/lib/ids";
import { isUniqueViolation } from "@/lib/db/errors";

export async function findMerchantByCommerceAccount(db: Db, account: string): Promise<Merchant | undefined> {
  const [row] = await db.select().from(merchants).where(eq(merchants.commerceAccount, account)).limit(1);
  return row;
}

/**
 * The account is looked up before the e-mail: a sign-up commits its merchant and owner together,
 * so once the account is seen taken the e-mail read after it sees the owner too. The other order
 * could read the e-mail just before a racing sign-up commits and the account just after.
 */
async function duplicateProblems(db: Db, email: string, commerceAccount: string): Promise<Problem[]> {
  const accountTaken = Boolean(await findMerchantByCommerceAccount(db, commerceAccount));
  const emailTaken = Boolean(await findUserByEmail(db, email));
  const problems: Problem[] = [];
  if (emailTaken) problems.push(problem("taken", "An account with this e-mail already exists", ["email"]));
  if (accountTaken) problems.push(problem("taken", "This commerce account is taken", ["commerceAccount"]));
  return problems;
}

/** Creates a merchant and its owner in one transaction; duplicates come back as field errors. */
/** `passwordHash`: a sign-up link's, already hashed when the form was sent (lib/auth/signup-link.ts). */
export async function createMerchantWithOwner(
  db: Db,
  input: Omit<SignUpInput, "password"> & ({ password: string } | { passwordHash: string }),
): Promise<Result<{ merchant: Merchant; user: Viewer["user"] }>> {
  const duplicates = await duplicateProblems(db, input.email, input.commerceAccount);
  if (duplicates.length) return fail(duplicates);
  const passwordHash = "passwordHash" in input ? input.passwordHash : await hashPassword(input.password);
  try {
    const created = await db.transaction(async (tx) => {
      const [merchant] = await tx
        .insert(merchants)
        .values({ id: newId("mer"), name: input.merchantName, commerceAccount: input.commerceAccount })
        .returning();
      const [user] = await tx
        .insert(users)
        .values({
          id: newId("usr"),
          merchantId: merchant!.id,
          email: input.email,
          name: input.name,
          passwordHash,
          role: "owner",
        })
        .returning();
      return { merchant: merchant!, user: user! };
    });
    const { passwordHash: _omit, ...user } = created.user;
    return ok({ merchant: created.merchant, user });
  } catch (error) {
    // A concurrent sign-up took the e-mail or account between the check and the insert.
    if (isUniqueViolation(error)) {
      const again = await duplicateProblems(db, input.email, input.commerceAccount);
      if (again.length) return fail(again);
    }
    throw error;
  }
}

export type AddMemberInput = { merchantId: string; email: string; name: string; password: string; role: Role };

export async function addMember(db: Db, input: AddMemberInput): Promise<Result<Viewer["user"]>> {
  if (await findUserByEmail(db, input.email)) {
    return fail([{ path: ["email"], message: "An account with this e-mail already exists", code: "taken" }]);
  }
  try {
    const [row] = await db
      .insert(users)
      .values({
        id: newId("usr"),
        merchantId: input.merchantId,
        email: input.email,
        name: input.name,
        passwordHash: await hashPassword(input.password),
        role: input.role,
      })
      .returning();
    const { passwordHash: _omit, ...user } = row!;
    return ok(user);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return fail([{ path: ["email"], message: "An account with this e-mail already exists", code: "taken" }]);
  }
}
