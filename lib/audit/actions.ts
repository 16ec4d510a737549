/**
 * What the audit log records (lib/audit/record.ts), grouped as the Audit log page filters them.
 * Plain data, safe for client components. An action is `<family>.<verb>`; the family is its group.
 */
export const AUDIT_GROUPS = {
  connection: "Connections",
  routing: "Routing",
  api_key: "API keys",
  team: "Team",
  settings: "Settings",
  webhook: "Webhooks",
  refund: "Refunds",
  dispute: "Disputes",
  alert: "Alerts",
  payout: "Payouts",
  authorization: "Captures and voids",
  card: "Saved cards",
  risk: "Risk",
  auth: "Sign-ins",
  mfa: "Two-factor authentication",
  export: "Exports",
} as const;
export type AuditGroup = keyof typeof AUDIT_GROUPS;
export const AUDIT_GROUP_KEYS = Object.keys(AUDIT_GROUPS) as AuditGroup[];

/** Every action, with the words the page shows for it. */
export const AUDIT_ACTIONS = {
  "connection.created": "Connection created",
  "connection.updated": "Connection updated",
  "connection.enabled": "Connection enabled",
  "connection.disabled": "Connection disabled",
  "connection.deleted": "Connection deleted",
  "connection.constants_updated": "Connection constants updated",
  "connection.tested": "Connection tested",
  /** Rows from before routing saves were recorded whole (routing.saved). */
  "connection.routing_changed": "Routing position changed",
  "routing.saved": "Routing order saved",
  "routing.rolled_back": "Routing rolled back to an earlier version",
  "routing.settings_updated": "Success-rate ordering settings changed",
  "api_key.created": "API key created",
  "api_key.revoked": "API key revoked",
  "api_key.rolled": "API key rolled",
  "team.invited": "Member invited",
  "team.invite_resent": "Invitation resent",
  "team.invite_revoked": "Invitation revoked",
  "team.role_changed": "Role changed",
  "team.joined": "Member joined (invitation accepted)",
  "team.removed": "Member removed",
  "settings.updated": "Settings updated",
  /** Rows from before endpoints (one URL per merchant). */
  "webhook.url_changed": "Webhook URL changed",
  "webhook.endpoint_created": "Webhook endpoint added",
  "webhook.endpoint_updated": "Webhook endpoint changed",
  "webhook.endpoint_deleted": "Webhook endpoint deleted",
  "webhook.secret_rotated": "Webhook signing secret rotated",
  "refund.created": "Refund created",
  "dispute.evidence_submitted": "Dispute evidence submitted",
  "dispute.accepted": "Dispute accepted (conceded)",
  "alert.rule_updated": "Alert rule changed",
  "payout.processed": "Payout processed from the dashboard",
  "payout.canceled": "Payout canceled from the dashboard",
  "authorization.captured": "Authorization captured from the dashboard",
  "authorization.voided": "Authorization voided from the dashboard",
  "card.removed": "Saved card removed from the dashboard",
  "risk.settings_updated": "Velocity limits changed",
  "risk.blocklist_added": "Blocklist entry added",
  "risk.blocklist_removed": "Blocklist entry removed",
  "auth.signed_in": "Signed in",
  "auth.sign_in_failed": "Sign-in failed: wrong password",
  "mfa.enabled": "Two-factor authentication turned on",
  "mfa.disabled": "Two-factor authentication turned off",
  "mfa.recovery_codes_regenerated": "Recovery codes regenerated",
  "mfa.required_changed": "Two-factor requirement for owners changed",
  "mfa.sign_in_failed": "Wrong two-factor code at sign-in",
  "export.invoices": "Invoices exported as CSV",
  "export.audit_log": "Audit log exported as CSV",
  "export.disputes": "Disputes exported as CSV",
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;

export function auditGroupOf(action: string): AuditGroup | undefined {
  const family = action.split(".")[0] as AuditGroup;
  return family in AUDIT_GROUPS ? family : undefined;
}

export function describeAuditAction(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? action;
}
