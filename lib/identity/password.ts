import bcrypt from "bcryptjs";

/** bcrypt's work factor when PASSWORD_HASH_COST does not set one. */
export const DEFAULT_PASSWORD_HASH_COST = 11;

/**
 * The work factor new hashes are made with: PASSWORD_HASH_COST when it is a whole number from 4 to
 * 15, else 11. The test suites set 4 (they test what is done with a password, not bcrypt's cost,
 * and at 11 pure-JS bcrypt takes about half a second of CPU per sign-up or sign-in); an operator
 * leaves it unset or raises it. A hash carries its own cost, so changing it never breaks a
 * password already saved.
 */
export function passwordHashCost(): number {
  const cost = Number(process.env.PASSWORD_HASH_COST);
  return Number.isInteger(cost) && cost >= 4 && cost <= 15 ? cost : DEFAULT_PASSWORD_HASH_COST;
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, passwordHashCost());
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

const dummies = new Map<number, Promise<string>>();

/**
 * A hash of no one's password at the current cost, compared against when no user matches, so a
 * wrong e-mail costs the same time as a wrong password. Made once per cost, on first use.
 */
export function dummyHash(): Promise<string> {
  const cost = passwordHashCost();
  let dummy = dummies.get(cost);
  if (!dummy) {
    dummy = bcrypt.hash(`no one's password ${cost}`, cost);
    dummies.set(cost, dummy);
  }
  return dummy;
}
