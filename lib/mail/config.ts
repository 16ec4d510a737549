/**
 * Where mail goes. With SMTP_URL set, through that server (nodemailer); without it, the
 * embedded default: into the `mail_outbox` table and one log line with its links redacted.
 *
 * Who reads the outbox: operators, not merchants. A stored reset or invite link signs its holder in,
 * so the `/outbox` page is served only when SMTP_URL is unset AND either NODE_ENV is not
 * "production" (a developer's own machine) or the operator explicitly sets MAIL_OUTBOX_PAGE=1
 * (a test deployment; never on one reachable by others). Everywhere else it is a 404: a production
 * deployment sets SMTP_URL, and until it does the messages stay in the `mail_outbox` table.
 */
export function smtpUrl(): string | undefined {
  return process.env.SMTP_URL?.trim() || undefined;
}

export function mailFrom(): string {
  return process.env.MAIL_FROM?.trim() || "Payment Orchestrator <no-reply@localhost>";
}

export function outboxPageEnabled(): boolean {
  if (smtpUrl()) return false;
  return process.env.NODE_ENV !== "production" || process.env.MAIL_OUTBOX_PAGE === "1";
}

/** Where an invitation's e-mail goes, for the Team page to say: a mail server, the Outbox page, or only the outbox table. */
export function invitationDelivery(): "smtp" | "outbox_page" | "outbox_table" {
  if (smtpUrl()) return "smtp";
  return outboxPageEnabled() ? "outbox_page" : "outbox_table";
}
