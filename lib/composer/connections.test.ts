import { describe, expect, it } from "vitest";
import type { ConnectionView } from "@/lib/connections/store";
import { findTemplate } from "./templates";
import {
  authorizeOffered,
  composerConnections,
  composerRoutes,
  connectionPatch,
  groupByProvider,
  routableServices,
  routeFor,
  templateConnection,
} from "./connections";

function view(overrides: Partial<ConnectionView>): ConnectionView {
  return {
    id: "conn_x",
    provider: "provider-a",
    kind: "provider_account",
    label: "A",
    mode: "test",
    enabled: true,
    currency: null,
    credentials: [{ id: "private_key", label: "Private key", secret: true, set: true, display: "••••abcd" }],
    publicValues: { merchant_id: "A-1" },
    constants: { CITY: "Kyiv" },
    services: ["payment_card_uah_hpp", "payment_card_uah"],
    health: "healthy",
    healthWindow: "",
    healthChangedAt: null,
    disputeRateHigh: false,
    lastError: null,
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...overrides,
  };
}

const views = [
  view({ id: "conn_a_live", label: "A live", mode: "live" }),
  view({ id: "conn_a_test", label: "A test" }),
  view({ id: "conn_b", label: "B", provider: "provider-b", kind: "h2h", services: ["payment_card_eur_hpp"] }),
  view({ id: "conn_off", label: "Off", enabled: false }),
];

describe("composerConnections", () => {
  it("never carries credentials; support members get test-mode connections only; disabled ones are left out", () => {
    const owner = composerConnections(views, "owner");
    expect(owner.map((c) => c.id)).toEqual(["conn_a_live", "conn_a_test", "conn_b"]);
    expect(JSON.stringify(owner)).not.toMatch(/abcd|A-1|credentials|publicValues/);
    expect(composerConnections(views, "support").map((c) => c.id)).toEqual(["conn_a_test", "conn_b"]);
  });

  it("groups by provider, only those offering the invoice type", () => {
    const connections = composerConnections(views, "owner");
    expect(groupByProvider(connections, "payment").map((g) => [g.name, g.connections.length])).toEqual([
      ["Provider A", 2],
      ["Provider B", 1],
    ]);
    expect(groupByProvider(connections, "payout").map((g) => g.provider)).toEqual(["provider-a"]);
  });

  it("picks a template's test-mode connection of its provider", () => {
    const connections = composerConnections(views, "owner");
    expect(templateConnection(connections, findTemplate("a-payout")!)?.id).toBe("conn_a_test");
    expect(templateConnection(connections, findTemplate("f-payment")!)).toBeUndefined();
  });

  it("follows the connection: service, its currency, and test mode from the connection's mode", () => {
    const [live] = composerConnections(views, "owner");
    expect(connectionPatch(live!, "payout", "payment_card_eur_hpp")).toEqual({
      provider: "provider-a",
      service: "payment_card_uah",
      currency: "UAH",
      test_mode: false,
    });
  });
});

describe("automatic routing in the composer", () => {
  const order = (id: string, entries: [string, boolean][]) => ({ id, connections: entries.map(([connectionId, enabled]) => ({ connectionId, enabled })) });

  it("keeps each order's enabled connections the viewer may compose with, in order", () => {
    const extra = view({ id: "conn_a_test2", label: "A test 2" });
    const orders = [
      order("payment_card_uah_hpp:test", [
        ["conn_a_test2", true],
        ["conn_off", false],
        ["conn_a_test", true],
      ]),
      order("payment_card_uah_hpp:live", [["conn_a_live", true]]),
      order("payment_card_eur_hpp:test", [["conn_off", false]]),
    ];
    const owner = composerConnections([...views, extra], "owner");
    expect(composerRoutes(orders, owner)).toEqual({
      "payment_card_uah_hpp:test": ["conn_a_test2", "conn_a_test"],
      "payment_card_uah_hpp:live": ["conn_a_live"],
    });
    expect(composerRoutes(orders, composerConnections([...views, extra], "support"))).toEqual({ "payment_card_uah_hpp:test": ["conn_a_test2", "conn_a_test"] });
    const routes = composerRoutes(orders, owner);
    expect(routeFor(routes, owner, "payment_card_uah_hpp", true).map((c) => c.label)).toEqual(["A test 2", "A test"]);
    expect(routeFor(routes, owner, "payment_card_uah_hpp", false).map((c) => c.label)).toEqual(["A live"]);
    expect(routeFor(routes, owner, "payment_card_eur_hpp", true)).toEqual([]);
  });

  it("offers the services any connection offers for the invoice type, once each", () => {
    const connections = composerConnections(views, "owner");
    expect(routableServices(connections, "payment").map((s) => s.code)).toEqual(["payment_card_uah_hpp", "payment_card_eur_hpp"]);
    expect(routableServices(connections, "payout").map((s) => s.code)).toEqual(["payment_card_uah"]);
  });
});

describe("authorizeOffered", () => {
  it("offers Authorize only where a reachable connection's provider authorizes now and captures later", () => {
    // Providers D and F sell only (their capabilities in lib/providers/provider-*/index.ts); B authorizes.
    expect(authorizeOffered([{ provider: "provider-d" }, { provider: "provider-f" }])).toBe(false);
    expect(authorizeOffered([{ provider: "provider-f" }, { provider: "provider-b" }])).toBe(true);
    expect(authorizeOffered([])).toBe(false);
  });
});
