import { publicBaseUrl } from "@/lib/config";
import type { Mail } from "./index";

/** The e-mails people receive. Links use APP_URL: the address people reach, never the listening one. */
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

/** Sign-up: the account is created from this link, so only the address's owner can. */
export function signUpConfirmMail(to: string, token: string, merchantName: string): Mail {
  const link = `${publicBaseUrl()}/sign-up/confirm/${token}`;
  return {
    to,
    subject: "Finish creating your Payment Orchestrator account",
    text: [
      `Someone (hopefully you) signed up for Payment Orchestrator with this e-mail, for ${merchantName}.`,
      "",
      `Finish creating the account: ${link}`,
      "",
      "The link expires in 24 hours. If you did not sign up, ignore this e-mail: nothing is created.",
    ].join("\n"),
  };
}

/** Sign-up with an address that already has an account: its owner is told, the form says nothing more. */
export function signUpExistingAccountMail(to: string): Mail {
  const base = publicBaseUrl();
  return {
    to,
    subject: "You already have a Payment Orchestrator account",
    text: [
      "Someone (hopefully you) tried to sign up for Payment Orchestrator with this e-mail, which already has an account.",
      "",
      `Sign in: ${base}/sign-in`,
      `Forgot your password? ${base}/forgot-password`,
      "",
      "If it was not you, ignore this e-mail: nothing was changed.",
    ].join("\n"),
  };
}

/** A payment link the merchant sends from the dashboard: what to pay, to whom, and the hosted page. */
export function paymentLinkMail(to: string, payment: { merchantName: string; amount: string; currency: string; description: string; link: string }): Mail {
  return {
    to,
    subject: `${payment.merchantName} asks you to pay ${payment.amount} ${payment.currency}`,
    text: [
      `${payment.merchantName} sent you a payment link.`,
      "",
      `For: ${payment.description}`,
      `Amount: ${payment.amount} ${payment.currency}`,
      "",
      `Pay here: ${payment.link}`,
      "",
      "If you were not expecting this, ignore this e-mail: nothing is charged unless you pay on that page.",
    ].join("\n"),
  };
}

type DisputeMailFacts = {
  merchantName: string;
  disputeId: string;
  invoiceId: string;
  amount: string;
  currency: string;
  reason: string;
  dueBy: Date;
  testMode: boolean;
};

const disputeLink = (invoiceId: string) => `${publicBaseUrl()}/invoices/${invoiceId}`;
const dueText = (dueBy: Date) => dueBy.toISOString().replace("T", " ").slice(0, 16) + " UTC";

/** To each owner when a provider opens a dispute of one of the merchant's payments. */
export function disputeOpenedMail(to: string, facts: DisputeMailFacts): Mail {
  return {
    to,
    subject: `${facts.testMode ? "[Test] " : ""}A customer disputed a payment of ${facts.amount} ${facts.currency}`,
    text: [
      `A customer of ${facts.merchantName} disputed a payment (dispute ${facts.disputeId}).`,
      "",
      `Amount: ${facts.amount} ${facts.currency}`,
      `Reason: ${facts.reason}`,
      `Evidence due by: ${dueText(facts.dueBy)}`,
      "",
      `See the payment: ${disputeLink(facts.invoiceId)}`,
      "",
      "Send evidence before the deadline, or accept the dispute; unanswered, it is lost.",
    ].join("\n"),
  };
}

/** To each owner three days before an open dispute's evidence deadline (once). */
export function disputeDeadlineMail(to: string, facts: DisputeMailFacts): Mail {
  return {
    to,
    subject: `${facts.testMode ? "[Test] " : ""}Dispute ${facts.disputeId}: evidence due by ${dueText(facts.dueBy)}`,
    text: [
      `The dispute of a payment of ${facts.amount} ${facts.currency} (${facts.merchantName}) still needs your response.`,
      "",
      `Reason: ${facts.reason}`,
      `Evidence due by: ${dueText(facts.dueBy)}`,
      "",
      `See the payment: ${disputeLink(facts.invoiceId)}`,
    ].join("\n"),
  };
}

/** What an alert e-mail tells (lib/alerts/deliver.ts). */
export type AlertMailFacts = {
  merchantName: string;
  title: string;
  detail: string;
  mode: "test" | "live" | null;
  link: string | null;
  resolvedDetail?: string | null;
};

/** To each owner when an alert fires, and again when it resolves (once each). */
export function alertMail(to: string, about: "triggered" | "resolved", facts: AlertMailFacts): Mail {
  const base = publicBaseUrl();
  const tag = facts.mode === "test" ? "[Test] " : "";
  return {
    to,
    subject: `${tag}${about === "triggered" ? "Alert" : "Resolved"}: ${facts.title}`,
    text: [
      about === "triggered" ? `An alert of ${facts.merchantName} fired.` : `An alert of ${facts.merchantName} resolved.`,
      "",
      facts.title,
      facts.detail,
      ...(about === "resolved" && facts.resolvedDetail ? ["", `Resolved: ${facts.resolvedDetail}`] : []),
      "",
      ...(facts.link ? [`See it: ${base}${facts.link}`] : []),
      `All alerts: ${base}/alerts`,
    ].join("\n"),
  };
}
