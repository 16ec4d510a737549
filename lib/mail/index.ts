import "server-only";
import { randomBytes } from "node:crypto";
import { desc } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import type { Db } from "@/lib/db/client";
import { mailOutbox } from "@/lib/db/schema";
import { logger } from "@/lib/logger";
import { mailFrom, smtpUrl } from "./config";
import { redactLinks } from "./redact";

export { outboxPageEnabled } from "./config";

export type Mail = { to: string; subject: string; text: string; html?: string };
export type OutboxMessage = typeof mailOutbox.$inferSelect;

let transport: { url: string; transporter: Transporter } | undefined;

function transporterFor(url: string): Transporter {
  if (transport?.url !== url) transport = { url, transporter: nodemailer.createTransport(url) };
  return transport.transporter;
}

/**
 * Sends one message: through SMTP_URL when set, else into the outbox table. Throws when the SMTP
 * server refuses or cannot be reached; callers decide whether the person may learn of it.
 */
export async function sendMail(db: Db, mail: Mail): Promise<void> {
  const url = smtpUrl();
  if (url) {
    await transporterFor(url).sendMail({ from: mailFrom(), to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    logger.info("mail sent", { subject: mail.subject });
    return;
  }
  const id = `mail_${randomBytes(12).toString("base64url")}`;
  await db.insert(mailOutbox).values({ id, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? null });
  logger.info("mail stored in outbox", { id, to: mail.to, subject: mail.subject, body: redactLinks(mail.text) });
}

const inFlight = new Set<Promise<void>>();

/**
 * Sends without making the caller wait (the person's answer must not tell whether mail went out);
 * a failure is logged as `failure`. `backgroundMailSettled` waits for every such send.
 */
export function sendMailInBackground(db: Db | Promise<Db>, mail: Mail, failure: string): void {
  const sending: Promise<void> = Promise.resolve(db)
    .then((ready) => sendMail(ready, mail))
    .catch((error: unknown) => logger.error(failure, { error }))
    .finally(() => inFlight.delete(sending));
  inFlight.add(sending);
}

/** Resolves once every background send started so far has finished (tests, before reading the store). */
export async function backgroundMailSettled(): Promise<void> {
  while (inFlight.size) await Promise.allSettled([...inFlight]);
}

/** Newest first, for the operator's outbox page and `npm run admin -- outbox`. */
export function listOutbox(db: Db, limit = 50): Promise<OutboxMessage[]> {
  return db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt)).limit(limit);
}
