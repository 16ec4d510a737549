import bcrypt from "bcryptjs";

const COST = 11;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

/** Compared against when no user matches, so a wrong e-mail costs the same time as a wrong password. */
export const DUMMY_HASH = "$2b$11$WnQtKrRpXFa.t3q7D9SSlOo2kL4ZxFYghoawmyxpvZP2bCFCS81VC";
