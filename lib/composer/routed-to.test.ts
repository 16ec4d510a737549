import { describe, expect, it } from "vitest";
import type { ComposerConnection } from "./connections";
import { routedTo, routedToText } from "./routed-to";

const F: ComposerConnection = {
  id: "conn_f",
  label: "F sandbox",
  provider: "provider-f",
  providerName: "Provider F",
  kind: "h2h",
  mode: "test",
  services: ["payment_card_eur_hpp"],
  constants: {},
};
const answer = (id: string, reason: unknown, rule: unknown = null) => ({
  data: { id: "cpi_1", attributes: { routing: { reason, rule } }, relationships: { connection: { data: { type: "connection", id } } } },
});

describe("routedTo (the composer says where an invoice went and why)", () => {
  it("names the connection and the reason from the API's answer", () => {
    expect(routedToText(routedTo(answer("conn_f", "pinned"), [F])!)).toBe("Routed to F sandbox (Provider F) — Pinned");
    expect(routedToText(routedTo(answer("conn_f", "routing_order"), [F])!)).toBe("Routed to F sandbox (Provider F) — First in routing order");
  });

  it("names the rule that decided, as the invoice page does, instead of the routing order", () => {
    expect(routedToText(routedTo(answer("conn_f", "routing_order", { position: 1, name: "Large EUR" }), [F])!)).toBe(
      "Routed to F sandbox (Provider F) — Routing rule 1: Large EUR",
    );
  });

  it("falls back to the id for a connection the composer does not list, and leaves out an unknown reason", () => {
    expect(routedToText(routedTo(answer("conn_x", "magic"), [F])!)).toBe("Routed to conn_x");
  });

  it("finds nothing in an error answer or a body that is not JSON", () => {
    expect(routedTo({ errors: [{ status: "422" }] }, [F])).toBeUndefined();
    expect(routedTo("Bad gateway", [F])).toBeUndefined();
    expect(routedTo(null, [F])).toBeUndefined();
  });
});
