import { describe, expect, it } from "vitest";
import { findService, getKind, getProvider, listServices, PROVIDERS, serviceLabel, serviceLabelOf, servicesForConnection } from "./index";

const codes = (services: { code: string }[]) => services.map((service) => service.code);

describe("spec 1 and 2.2: services", () => {
  it("lists every service once", () => {
    expect(codes(listServices()).sort()).toEqual([
      "payment_card_amd_hpp",
      "payment_card_eur_hpp",
      "payment_card_uah",
      "payment_card_uah_hpp",
      "payment_card_uzs_hpp",
    ]);
  });

  it("describes a service the same way at every provider", () => {
    for (const provider of PROVIDERS) {
      for (const service of provider.services) expect(findService(service.code)).toEqual(service);
    }
  });

  it("finds services by code", () => {
    expect(findService("payment_card_uah")).toEqual({
      code: "payment_card_uah",
      currency: "UAH",
      direction: "payout",
      hostedPage: false,
    });
    expect(findService("payment_card_uah_hpp")).toMatchObject({ direction: "payment", hostedPage: true });
    expect(findService("payment_card_usd_hpp")).toBeUndefined();
  });
});

describe("spec 1 and 5.1: services of a connection", () => {
  it("offers a provider account every service of its provider", () => {
    expect(codes(servicesForConnection("provider-a", "provider_account", {}))).toEqual(["payment_card_uah_hpp", "payment_card_uah"]);
    expect(codes(servicesForConnection("provider-c", "provider_account", {}))).toEqual(["payment_card_amd_hpp", "payment_card_eur_hpp"]);
  });

  it("offers an H2H account the services in its currency", () => {
    expect(codes(servicesForConnection("provider-c", "h2h", { currency: "AMD" }))).toEqual(["payment_card_amd_hpp"]);
    expect(codes(servicesForConnection("provider-c", "h2h", { currency: "EUR" }))).toEqual(["payment_card_eur_hpp"]);
    expect(servicesForConnection("provider-c", "h2h", {})).toEqual([]);
    expect(codes(servicesForConnection("provider-d", "h2h", { currency: "UZS" }))).toEqual(["payment_card_uzs_hpp"]);
  });

  it("offers Provider A H2H payouts only with the payouts feature", () => {
    const provider = getProvider("provider-a");
    const kind = getKind("provider-a", "h2h");
    if (provider === undefined || kind === undefined) throw new Error("Provider A missing");
    expect(codes(servicesForConnection(provider, kind, { currency: "UAH", features: ["payments"] }))).toEqual(["payment_card_uah_hpp"]);
    expect(codes(servicesForConnection(provider, kind, { currency: "UAH" }))).toEqual(["payment_card_uah_hpp"]);
    expect(codes(servicesForConnection(provider, kind, { currency: "UAH", features: ["payouts"] }))).toEqual(["payment_card_uah_hpp", "payment_card_uah"]);
  });

  it("offers nothing for unknown providers or kinds", () => {
    expect(servicesForConnection("provider-z", "h2h", {})).toEqual([]);
    expect(servicesForConnection("provider-b", "provider_account", {})).toEqual([]);
  });
});

describe("readable service names", () => {
  it("names each service by method, direction, currency and page", () => {
    expect(serviceLabelOf("payment_card_uah_hpp")).toBe("Card payment · UAH · hosted page");
    expect(serviceLabelOf("payment_card_uah")).toBe("Card payout · UAH");
    expect(serviceLabelOf("payment_card_eur_hpp")).toBe("Card payment · EUR · hosted page");
    expect(serviceLabelOf("payment_unknown_xyz")).toBe("payment_unknown_xyz");
  });

  it("gives every registered service a name that carries no code", () => {
    for (const service of listServices()) expect(serviceLabel(service)).not.toMatch(/_/);
  });
});
