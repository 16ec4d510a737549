import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { InvoiceCallbacks } from "./invoice-callbacks";

describe("InvoiceCallbacks", () => {
  it("lists each callback with its time, provider, outcome, reason and reported status", () => {
    const html = renderToStaticMarkup(
      createElement(InvoiceCallbacks, {
        callbacks: [
          {
            id: "cb_1",
            receivedAt: "2026-11-24T05:00:01.000Z",
            provider: "provider-e",
            providerName: "Provider E",
            outcome: "ignored",
            reason: "ignore_callback is on: the status request decides",
            reportedStatus: "succeeded",
            reportedResolution: null,
            notificationId: "ntf_1",
            attemptId: "att_1",
            refundId: null,
          },
          {
            id: "cb_2",
            receivedAt: "2026-11-24T05:00:09.000Z",
            provider: "provider-b",
            providerName: "Provider B",
            outcome: "superseded",
            reason: "the invoice has moved on to attempt 2",
            reportedStatus: "declined",
            reportedResolution: "auth_3ds_failed",
            notificationId: "ntf_2",
            attemptId: "att_2",
            refundId: null,
          },
          {
            id: "cb_3",
            receivedAt: "2026-11-24T05:01:00.000Z",
            provider: "provider-b",
            providerName: "Provider B",
            outcome: "applied",
            reason: null,
            reportedStatus: "succeeded",
            reportedResolution: null,
            notificationId: "ntf_3",
            attemptId: null,
            refundId: "rf_0123456789abcdef",
          },
        ],
        timeZone: "UTC",
      }),
    );
    for (const text of [
      "Received at",
      "Reported status",
      "24 Nov 2026, 05:00:01 UTC",
      "Provider E",
      "Stored, ignored (ignore_callback)",
      "ignore_callback is on: the status request decides",
      "succeeded",
      "Stored, changed nothing",
      "the invoice has moved on to attempt 2",
      "declined",
      "(auth 3ds failed)",
    ]) {
      expect(html).toContain(text);
    }
    expect(html.indexOf("Provider E")).toBeLessThan(html.indexOf("Provider B"));
    // A notification about a refund names it.
    expect(html).toMatch(/Refund <span class="font-mono">rf_0123456789abcdef<\/span>/);
    expect(html.match(/Refund <span/g)).toHaveLength(1);
  });

  it("says so when there is none", () => {
    expect(renderToStaticMarkup(createElement(InvoiceCallbacks, { callbacks: [], timeZone: "UTC" }))).toContain("No provider callbacks yet.");
  });
});
