import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { BrandMark } from "@/components/shell/brand-mark";
import { getDb } from "@/lib/db/client";
import { formatDateTime } from "@/lib/format";
import { listOutbox, outboxPageEnabled } from "@/lib/mail";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Mail outbox", robots: { index: false }, referrer: "no-referrer" };

/** Splits a message body into text and links, so a link can be followed from the page. */
function withLinks(text: string) {
  return text.split(/(https?:\/\/\S+)/g).map((part, index) =>
    /^https?:\/\//.test(part) ? (
      <a key={index} href={part} className="break-all text-brand-700 underline">
        {part}
      </a>
    ) : (
      part
    ),
  );
}

/**
 * The operator's outbox (lib/mail/config.ts says when it is served): the mail the app would have
 * sent, newest first. It holds working sign-in links, so it is a 404 on every real deployment.
 */
export default async function OutboxPage() {
  if (!outboxPageEnabled()) notFound();
  const messages = await listOutbox(await getDb());
  return (
    <main className="mx-auto max-w-4xl px-4 py-8">
      <div className="mb-4 text-lg">
        <BrandMark />
      </div>
      <h1 className="mb-1 text-xl font-semibold">Mail outbox</h1>
      <p className="mb-6 text-sm text-slate-600">No SMTP_URL is set, so e-mail is kept here instead of being sent. For development and tests only.</p>
      {messages.length === 0 ? (
        <p className="card text-sm text-slate-700">No messages yet.</p>
      ) : (
        <ol className="space-y-4">
          {messages.map((message) => (
            <li key={message.id}>
              <article className="card" aria-labelledby={`${message.id}-subject`} data-testid="outbox-message">
                <h2 id={`${message.id}-subject`} className="text-base font-semibold">
                  {message.subject}
                </h2>
                <p className="mb-3 text-sm text-slate-600">
                  To <span data-testid="outbox-to">{message.to}</span> · {formatDateTime(message.createdAt)}
                </p>
                <p className="whitespace-pre-wrap text-sm text-slate-900">{withLinks(message.text)}</p>
              </article>
            </li>
          ))}
        </ol>
      )}
    </main>
  );
}
