"use client";

import Script from "next/script";
import { useCallback, useRef, useState } from "react";

type SwaggerRequest = { url: string };
type SwaggerUiBundle = ((config: Record<string, unknown>) => unknown) & { presets: { apis: unknown } };
type Component = (props: Record<string, unknown>) => unknown;
type SwaggerSystem = { React: { createElement: (type: unknown, props: Record<string, unknown>) => unknown } };
type ImmutableMap = { set: (key: string, value: unknown) => ImmutableMap };

declare global {
  interface Window {
    SwaggerUIBundle?: SwaggerUiBundle;
  }
}

/**
 * An operation's summary is one button; Swagger puts its deep link (an <a href>) inside it, a link
 * in a button that keyboards and screen readers cannot tell apart (axe: nested-interactive). The
 * path is shown as plain text there; the button still opens the operation and sets the address's
 * #/tag/operation, so deep links keep working.
 */
const summaryPathWithoutLink = {
  wrapComponents: {
    OperationSummaryPath: (Original: Component, system: SwaggerSystem) => (props: { operationProps: ImmutableMap }) =>
      system.React.createElement(Original, { ...props, operationProps: props.operationProps.set("isDeepLinkingEnabled", false) }),
  },
};

/**
 * What Swagger renders that axe refuses, fixed in the DOM as it appears (operations render their
 * body only when opened): the server picker gets a name, and code boxes, which scroll when wider or
 * taller than their box, can be reached and scrolled from the keyboard; a parameter's value picker
 * is named after its parameter.
 */
function tidy(root: HTMLElement) {
  for (const select of root.querySelectorAll<HTMLSelectElement>("select#servers:not([aria-label])")) select.setAttribute("aria-label", "Server");
  // An enum parameter's value picker sits in the parameter's row, without a label.
  for (const select of root.querySelectorAll<HTMLSelectElement>("tr[data-param-name] select:not([aria-label])")) {
    select.setAttribute("aria-label", select.closest("tr")?.dataset.paramName ?? "Value");
  }
  for (const pre of root.querySelectorAll<HTMLElement>("pre:not([tabindex])")) pre.tabIndex = 0;
  // Swagger's layout puts its operations (and a schema document) in a <main> of their own, inside the
  // page's <main>: one main landmark only, so theirs are groups to assistive technology (not "none",
  // which a focusable element, as theirs are, would ignore).
  for (const main of root.querySelectorAll<HTMLElement>("main:not([role])")) main.setAttribute("role", "group");
  // Try it out's request body editor.
  for (const textarea of root.querySelectorAll<HTMLTextAreaElement>("textarea.body-param__text:not([aria-label])")) textarea.setAttribute("aria-label", "Request body");
  // A request body's example picker.
  for (const select of root.querySelectorAll<HTMLSelectElement>("select.examples-select-element:not([aria-label])")) select.setAttribute("aria-label", "Example");
}

/**
 * Mounts Swagger UI into its own element once the bundle has loaded (next/script: loaded after the
 * page, on this page only, once per visit; coming back here mounts again without a new request).
 * Swagger's React owns that element's children; this component never renders into it.
 */
export function SwaggerUiViewer({ bundleUrl, documentUrl, spec, nonce }: { bundleUrl: string; documentUrl: string; spec?: Record<string, unknown>; nonce?: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");

  const mount = useCallback(() => {
    const SwaggerUIBundle = window.SwaggerUIBundle;
    const node = host.current;
    if (!SwaggerUIBundle || !node) return;
    // Lives as long as the element does (no cleanup on unmount: React's development double-run
    // would stop it on a page that is still shown).
    const observer = new MutationObserver(() => tidy(node));
    observer.observe(node, { childList: true, subtree: true });
    SwaggerUIBundle({
      domNode: node,
      // The document as the page built it (its examples for this merchant), else the one the URL serves.
      ...(spec ? { spec } : { url: documentUrl }),
      // The BaseLayout has no top bar (no box to load some other document from).
      layout: "BaseLayout",
      presets: [SwaggerUIBundle.presets.apis],
      plugins: [summaryPathWithoutLink],
      deepLinking: true,
      docExpansion: "list",
      defaultModelsExpandDepth: 1,
      displayOperationId: true,
      displayRequestDuration: true,
      tryItOutEnabled: false,
      // The default sends the document's URL to validator.swagger.io for a badge.
      validatorUrl: null,
      // "Try it out" (and the document fetch) go to this server only, never elsewhere.
      requestInterceptor: (request: SwaggerRequest) => {
        if (new URL(request.url, window.location.href).origin !== window.location.origin) {
          throw new Error(`The reference sends requests to this server only, not to ${request.url}.`);
        }
        return request;
      },
      onComplete: () => {
        tidy(node);
        setState("ready");
      },
    });
  }, [documentUrl, spec]);

  return (
    <>
      <Script src={bundleUrl} nonce={nonce} strategy="afterInteractive" onReady={mount} onError={() => setState("failed")} />
      {state === "ready" ? null : (
        <p role="status" className="p-5">
          {state === "loading" ? "Loading the reference… " : "The reference viewer could not be loaded. "}
          The document itself is at{" "}
          <a href={documentUrl} className="font-mono text-brand-700 underline">
            {documentUrl}
          </a>
          .
        </p>
      )}
      <div ref={host} className="api-reference min-w-0" data-testid="api-reference" />
    </>
  );
}
