"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { rotateWebhookSecretAction, sendTestWebhookAction } from "@/lib/actions/webhooks";
import { formatDateTime } from "@/lib/format";
import type { WebhookAnswer, WebhookSettingsView } from "@/lib/webhooks/views";
import { WebhookAnswerView } from "./webhook-answer";
import { WebhookSecretReveal } from "./webhook-secret-reveal";
import { WebhookUrlForm } from "./webhook-url-form";

/**
 * Settings' Webhooks section. Owners set the callback URL, see a new signing secret
 * once (first save, rotation), rotate it and send a test event; support members see the URL only.
 */
export function WebhookSettings({ settings, canEdit, urlRules }: { settings: WebhookSettingsView; canEdit: boolean; urlRules: string }) {
  const [secret, setSecret] = useState<string>();
  const [answer, setAnswer] = useState<WebhookAnswer>();
  const [message, setMessage] = useState<string>();
  const [rotating, startRotate] = useTransition();
  const [testing, startTest] = useTransition();
  const router = useRouter();

  if (!canEdit) {
    return (
      <div className="space-y-2 text-sm text-slate-700">
        <p data-testid="webhook-url">
          Callback URL: {settings.url ? <span className="font-mono break-all">{settings.url}</span> : "not set"}. An owner can change it.
        </p>
        <DocsLink />
      </div>
    );
  }

  const rotate = () => {
    if (!window.confirm("Make a new signing secret? The current one keeps signing for 24 hours, so update your receiver within that time.")) return;
    startRotate(async () => {
      setMessage(undefined);
      const result = await rotateWebhookSecretAction({});
      if (!result.ok) return setMessage(result.message);
      setSecret(result.data.secret);
      router.refresh();
    });
  };

  const sendTest = () =>
    startTest(async () => {
      setMessage(undefined);
      setAnswer(undefined);
      const result = await sendTestWebhookAction({});
      if (!result.ok) return setMessage(result.message);
      setAnswer(result.data);
      router.refresh();
    });

  return (
    <div className="space-y-4">
      <WebhookUrlForm url={settings.url} urlRules={urlRules} onSecret={setSecret} />
      {secret ? <WebhookSecretReveal secret={secret} onDone={() => setSecret(undefined)} /> : null}
      <div className="border-t border-slate-200 pt-4">
        <h3 className="text-sm font-semibold">Signing secret</h3>
        <p className="mt-1 text-sm text-slate-700" data-testid="webhook-secret-status">
          {settings.secretCreatedAt ? `Made ${formatDateTime(settings.secretCreatedAt)}; shown only when it was made.` : "None yet: saving a callback URL makes one."}
        </p>
        {settings.retiringSecrets.map((at) => (
          <p key={at} className="text-sm text-slate-700">
            A previous secret still signs until {formatDateTime(at)}.
          </p>
        ))}
        <div className="mt-3 flex flex-wrap items-center gap-3">
          {settings.secretCreatedAt ? (
            <button type="button" className="btn-secondary" onClick={rotate} disabled={rotating} aria-busy={rotating}>
              {rotating ? "Rotating…" : "Rotate secret"}
            </button>
          ) : null}
          <button type="button" className="btn-secondary" onClick={sendTest} disabled={testing || !settings.url} aria-busy={testing}>
            {testing ? "Sending…" : "Send test event"}
          </button>
          <DocsLink />
        </div>
      </div>
      {message ? (
        <p role="alert" className="text-sm text-red-700">
          {message}
        </p>
      ) : null}
      {answer ? <WebhookAnswerView answer={answer} label="Test event" /> : null}
    </div>
  );
}

function DocsLink() {
  return (
    <Link href="/docs/webhooks" className="text-sm text-brand-700 underline">
      Webhooks docs: payload, signature and verification
    </Link>
  );
}
