import { publicBaseUrl } from "@/lib/config";
import type { Mail } from "./index";

/** The e-mails of issue 12. Links use APP_URL: the address people reach, never the listening one. */
export function passwordResetMail(to: string, token: string): Mail {
  const link = `${publicBaseUrl()}/reset-password/${token}`;
  return {
    to,
    subject: "Reset your Payment Orchestrator password",
    text: [
      "Someone (hopefully you) asked to reset the password of this account.",
      "",
      `Set a new password: ${link}`,
      "",
      "The link works once and expires in 30 minutes. If you did not ask for it, ignore this e-mail: your password stays as it is.",
    ].join("\n"),
  };
}

export function inviteMail(to: string, token: string, invite: { name: string; merchantName: string }): Mail {
  const link = `${publicBaseUrl()}/invite/${token}`;
  return {
    to,
    subject: `You are invited to ${invite.merchantName} on Payment Orchestrator`,
    text: [
      `Hello ${invite.name},`,
      "",
      `You are invited to join ${invite.merchantName}. Choose your password here: ${link}`,
      "",
      "The link works once and expires in 7 days.",
    ].join("\n"),
  };
}
