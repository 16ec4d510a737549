import { describe, expect, it } from "vitest";
import { cardInput } from "@/lib/pay/card-checks";
import { hostedPaymentScript } from "./browser";
import { escapeHtml, html } from "./html";

/**
 * The hosted page's script is the source text of two functions (assets.ts): each must work on its
 * own, with nothing of this module around it, or the page's checks would fail in the browser only.
 */
describe("the hosted page's script", () => {
  it("cardInput runs from its source text alone, and says what the server says", () => {
    const isolated = new Function(`"use strict"; return (${cardInput.toString()})();`)() as ReturnType<typeof cardInput>;
    const now = new Date("2026-11-24T00:00:00Z");
    const values = { number: "4242 4242 4242 4241", expiry: "10/26", cvc: "12", holder: "A" };
    expect(isolated.cardFieldErrors(values, { takesCvc: true, now })).toEqual(cardInput().cardFieldErrors(values, { takesCvc: true, now }));
    expect(isolated.cardFieldErrors(values, { takesCvc: true, now })).toEqual({
      number: "This card number is not valid: check the digits.",
      expiry: "This card has expired.",
      cvc: "Enter the 3 or 4 digit CVC.",
      holder: "Enter the name on the card (2 to 100 characters).",
    });
    expect(isolated.formatCardNumberInput("4242424242424242")).toBe("4242 4242 4242 4242");
    expect(isolated.formatExpiryInput("1229")).toBe("12/29");
  });

  it("hostedPaymentScript names nothing outside itself", () => {
    // Compiled on its own in a scope that has only the browser's globals it uses: a reference to an
    // import would throw a ReferenceError when it runs; here it must at least compile and start.
    const listeners: string[] = [];
    const fakeDocument = {
      getElementById: () => null,
      querySelector: () => null,
      querySelectorAll: () => [],
      addEventListener: (type: string) => listeners.push(type),
    };
    const run = new Function("document", "window", `"use strict"; (${hostedPaymentScript.toString()})((${cardInput.toString()})());`);
    run(fakeDocument, {});
    expect(listeners.sort()).toEqual(["click", "input", "submit"]);
  });
});

describe("html", () => {
  it("escapes every interpolated value, not the markup it builds", () => {
    const name = `<script>alert("x")</script>&'`;
    expect(html`<p title="${name}">${name}</p>`.text).toBe(`<p title="${escapeHtml(name)}">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;</p>`);
    expect(html`<div>${html`<b>${"a<b"}</b>`}</div>`.text).toBe("<div><b>a&lt;b</b></div>");
    expect(html`${[null, undefined, false, "x", 1]}`.text).toBe("x1");
  });
});
