"use client";

import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import type { TryItProps } from "./try-it-props";

type Answer = { status: number; statusText: string; body: string; ms: number } | { error: string };

function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/**
 * Sends the operation to this server (same origin) with the key the merchant pastes, in the
 * Authorization header, and shows the answer's status and body. The key stays in this form: it is
 * neither stored nor sent anywhere else.
 */
export default function TryItForm({
  operationId,
  method,
  path,
  pathParameters,
  hasQuery,
  examples,
  hasBody,
  needsKey,
  onClose,
}: TryItProps & { onClose: () => void }) {
  const id = useId();
  const keyInput = useRef<HTMLInputElement>(null);
  const [key, setKey] = useState("");
  const [params, setParams] = useState<Record<string, string>>({});
  const [query, setQuery] = useState("");
  const [example, setExample] = useState(examples[0]?.name ?? "");
  const [body, setBody] = useState(examples[0]?.json ?? "");
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const [answer, setAnswer] = useState<Answer | null>(null);

  // Opened with the keyboard or a click: the first thing to fill in is the key.
  useEffect(() => keyInput.current?.focus(), []);

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (needsKey && !key.trim()) found.key = "Paste an API key: it goes in the Authorization header.";
    for (const name of pathParameters) if (!params[name]?.trim()) found[name] = `Enter ${name}: it is part of the path.`;
    if (hasBody && body.trim()) {
      try {
        JSON.parse(body);
      } catch {
        found.body = "The body is not valid JSON.";
      }
    }
    setProblems(found);
    if (Object.keys(found).length > 0) {
      document.getElementById(`${id}-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    const url =
      path.replace(/\{(\w+)\}/g, (_all, name: string) => encodeURIComponent(params[name]!.trim())) +
      (query.trim() ? `?${query.trim().replace(/^\?/, "")}` : "");
    const headers: Record<string, string> = { Accept: "application/vnd.api+json" };
    if (key.trim()) headers.Authorization = `Bearer ${key.trim()}`;
    if (hasBody) headers["Content-Type"] = "application/vnd.api+json";
    setPending(true);
    setAnswer(null);
    const started = performance.now();
    try {
      const response = await fetch(url, { method, headers, body: hasBody && body.trim() ? body : undefined, credentials: "omit", cache: "no-store" });
      const text = await response.text();
      setAnswer({ status: response.status, statusText: response.statusText, body: pretty(text), ms: Math.round(performance.now() - started) });
    } catch (error) {
      setAnswer({ error: `The request did not get an answer: ${(error as Error).message}` });
    } finally {
      setPending(false);
    }
  }

  const described = (name: string, help?: string) => [help, problems[name] ? `${id}-${name}-error` : undefined].filter(Boolean).join(" ") || undefined;
  const error = (name: string) =>
    problems[name] ? (
      <p id={`${id}-${name}-error`} className="field-error">
        {problems[name]}
      </p>
    ) : null;

  return (
    <form
      onSubmit={send}
      noValidate
      aria-label={`Try ${method} ${path}`}
      data-try-it={operationId}
      className="space-y-3 rounded-md border border-slate-200 bg-slate-50 p-4"
    >
      <div>
        <label htmlFor={`${id}-key`} className="label">
          API key{needsKey ? <span className="text-red-700"> *</span> : null}
        </label>
        <input
          ref={keyInput}
          id={`${id}-key`}
          type="password"
          autoComplete="off"
          spellCheck={false}
          className="input mt-1 font-mono"
          value={key}
          onChange={(event) => setKey(event.target.value)}
          aria-describedby={described("key", `${id}-key-help`)}
          aria-invalid={problems.key ? true : undefined}
          placeholder="pok_test_…"
        />
        <p id={`${id}-key-help`} className="help">
          Where the key goes: the Authorization header, sent as <code className="font-mono">Authorization: Bearer &lt;key&gt;</code> to this server only. A test
          key (pok_test_…) works on test data. The key is not stored.
        </p>
        {error("key")}
      </div>
      {pathParameters.map((name) => (
        <div key={name}>
          <label htmlFor={`${id}-${name}`} className="label">
            Path parameter {name}
            <span className="text-red-700"> *</span>
          </label>
          <input
            id={`${id}-${name}`}
            className="input mt-1 font-mono"
            value={params[name] ?? ""}
            onChange={(event) => setParams({ ...params, [name]: event.target.value })}
            aria-describedby={described(name)}
            aria-invalid={problems[name] ? true : undefined}
          />
          {error(name)}
        </div>
      ))}
      {hasQuery ? (
        <div>
          <label htmlFor={`${id}-query`} className="label">
            Query string
          </label>
          <input
            id={`${id}-query`}
            className="input mt-1 font-mono"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            placeholder="page[size]=10"
            aria-describedby={`${id}-query-help`}
          />
          <p id={`${id}-query-help`} className="help">
            Optional, without the leading ?: the parameters listed above, e.g. page[size]=10.
          </p>
        </div>
      ) : null}
      {hasBody ? (
        <div>
          {examples.length > 1 ? (
            <div className="mb-2">
              <label htmlFor={`${id}-example`} className="label">
                Start from example
              </label>
              <select
                id={`${id}-example`}
                className="input mt-1"
                value={example}
                onChange={(event) => {
                  setExample(event.target.value);
                  setBody(examples.find((entry) => entry.name === event.target.value)?.json ?? "");
                }}
              >
                {examples.map((entry) => (
                  <option key={entry.name} value={entry.name}>
                    {entry.label}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <label htmlFor={`${id}-body`} className="label">
            Body (JSON)
          </label>
          <textarea
            id={`${id}-body`}
            className="input mt-1 h-64 font-mono text-xs"
            spellCheck={false}
            value={body}
            onChange={(event) => setBody(event.target.value)}
            aria-describedby={described("body")}
            aria-invalid={problems.body ? true : undefined}
          />
          {error("body")}
        </div>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <button type="submit" className="btn-primary" disabled={pending} aria-disabled={pending}>
          {pending ? "Sending…" : `Send ${method}`}
        </button>
        <button type="button" className="btn-secondary" onClick={onClose}>
          Close
        </button>
      </div>
      <div role="status" aria-live="polite" className="space-y-2">
        {answer && "error" in answer ? <p className="field-error">{answer.error}</p> : null}
        {answer && "status" in answer ? (
          <>
            <p className="text-sm font-medium" data-testid="try-it-status">
              Status <span className={answer.status < 400 ? "text-green-800" : "text-red-800"}>{answer.status}</span> {answer.statusText} · {answer.ms} ms
            </p>
            <pre
              aria-label="Response body"
              tabIndex={0}
              className="max-h-96 overflow-auto rounded-md bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
            >
              {answer.body || "(no body)"}
            </pre>
          </>
        ) : null}
      </div>
    </form>
  );
}
