import { describe, expect, it } from "vitest";
import { attemptResourceSchema, errorDocumentSchema, invoiceListQuerySchema, invoiceResourceSchema } from "./resource-schemas";
import { toJsonPointer } from "@/lib/problems";

describe("invoiceListQuerySchema", () => {
  it("defaults and coerces the page size", () => {
    expect(invoiceListQuerySchema.parse({})).toEqual({ "page[size]": 20 });
    expect(invoiceListQuerySchema.parse({ "page[size]": "50" })["page[size]"]).toBe(50);
  });

  it.each([{ "page[size]": "0" }, { "page[size]": "101" }, { "filter[status]": "paid" }, { "filter[created_from]": "yesterday" }])("rejects %j", (query) =>
    expect(invoiceListQuerySchema.safeParse(query).success).toBe(false),
  );
});

describe("response schemas", () => {
  it("accept an invoice and an error document", () => {
    const invoice = {
      id: "cpi_abc123",
      type: "payment-invoice",
      attributes: {
        status: "created",
        resolution: null,
        amount: "100.50",
        currency: "EUR",
        service: "payment_card_eur_hpp",
        reference_id: "r1",
        test_mode: true,
        flow: "charge",
        options: {},
        customer: null,
        resolved_customer: { language: "en" },
        resolved_customer_sources: { language: { source: "default" } },
        hpp_url: null,
        routing: {
          reason: "routing_order",
          explanation: "No rule applied.",
          rule: null,
          branch: null,
          order: ["conn_1"],
          decided_at: "creation",
          success_rate: null,
        },
        created: "2025-01-01T00:00:00Z",
        updated: "2025-01-01T00:00:00Z",
        processed_amount: null,
        attempts: 0,
        return_url: null,
        lifetime: 1800,
        expires_at: "2025-01-01T00:30:00Z",
      },
      relationships: {
        connection: { data: null },
        attempts: { links: { related: "https://pay.example.test/api/commerce/payment-invoices/cpi_abc123/attempts" } },
      },
      links: { self: "https://pay.example.test/api/commerce/payment-invoices/cpi_abc123" },
    };
    expect(invoiceResourceSchema.safeParse(invoice).success).toBe(true);
    const error = {
      errors: [
        {
          status: "422",
          code: "currency_mismatch",
          title: "Currency does not match service",
          detail: "payment_card_uah_hpp takes UAH, got EUR",
          source: { pointer: "/data/attributes/currency" },
        },
      ],
      meta: { request_id: "req_1" },
    };
    expect(errorDocumentSchema.safeParse(error).success).toBe(true);
  });

  it("describe each resolved customer value's source, null for invoices from before sources were recorded", () => {
    const sources = invoiceResourceSchema.shape.attributes.shape.resolved_customer_sources;
    expect(sources.safeParse({ "customer.name": { source: "constant", constant: "NAME" }, language: { source: "request" } }).success).toBe(true);
    expect(sources.safeParse(null).success).toBe(true);
    expect(sources.safeParse({ "customer.name": { source: "unknown" } }).success).toBe(false);
  });
});

describe("routing", () => {
  it("says why the invoice went to its connection: pinned, first in the routing order, or cascaded; null without one", () => {
    const routing = invoiceResourceSchema.shape.attributes.shape.routing;
    const explained = {
      explanation: "Rule 1 “EU” matched and sent it to B.",
      rule: { position: 1, name: "EU" },
      branch: null,
      order: ["conn_b"],
      decided_at: "creation",
      success_rate: null,
    };
    for (const reason of ["pinned", "routing_order", "cascaded"]) expect(routing.safeParse({ reason, ...explained }).success).toBe(true);
    expect(routing.safeParse(null).success).toBe(true);
    const rated = {
      window_hours: 24,
      min_sample: 20,
      exploration_percent: 5,
      connections: [{ id: "conn_b", attempts: 85, successes: 34, trusted: true }],
      explored: null,
    };
    expect(routing.safeParse({ reason: "routing_order", ...explained, success_rate: rated }).success).toBe(true);
    expect(routing.safeParse({ reason: "routing_order", ...explained, success_rate: { ...rated, explored: 5 } }).success).toBe(false);
    expect(routing.safeParse({ ...explained, reason: "default" }).success).toBe(false);
    expect(routing.safeParse({ reason: "routing_order" }).success, "the sentence is always there").toBe(false);
  });
});

describe("toJsonPointer", () => {
  it("escapes ~ and / (RFC 6901)", () => {
    expect(toJsonPointer(["data", "a/b", "c~d", 0])).toBe("/data/a~1b/c~0d/0");
    expect(toJsonPointer([])).toBe("");
  });
});

describe("processing", () => {
  const attributes = invoiceResourceSchema.shape.attributes.shape;

  it("gives processed_amount in amount's forms, null until a provider says; attempts as a count; return_url or null", () => {
    for (const value of ["75.00", 75, null]) expect(attributes.processed_amount.safeParse(value).success).toBe(true);
    expect(attributes.attempts.safeParse(2).success).toBe(true);
    expect(attributes.attempts.safeParse(-1).success).toBe(false);
    expect(attributes.return_url.safeParse("https://shop.example.com/back").success).toBe(true);
    expect(attributes.return_url.safeParse(null).success).toBe(true);
  });

  it("gives the lifetime in whole seconds and expires_at as an ISO time", () => {
    expect(attributes.lifetime.safeParse(1800).success).toBe(true);
    expect(attributes.lifetime.safeParse(1.5).success).toBe(false);
    expect(attributes.expires_at.safeParse("2025-01-01T00:30:00.000Z").success).toBe(true);
    expect(attributes.expires_at.safeParse(null).success).toBe(false);
  });

  it("describes an attempt with its connection, reason, outcome and payout parts", () => {
    const attempt = {
      id: "att_1",
      type: "invoice-attempt",
      attributes: {
        seq: 2,
        reason: "cascaded",
        status: "succeeded",
        resolution: "ok",
        provider_reference: "ref-1",
        processed_amount: "100.00",
        message: null,
        started: "2025-01-01T00:00:00Z",
        finished: "2025-01-01T00:00:01Z",
        duration_ms: 1000,
        payout_parts: [{ id: "po_1", amount: "50.00", status: "succeeded", provider_reference: null }],
      },
      relationships: {
        connection: { data: { type: "connection", id: "conn_1" } },
      },
    };
    expect(attemptResourceSchema.safeParse(attempt).success).toBe(true);
    expect(attemptResourceSchema.safeParse({ ...attempt, attributes: { ...attempt.attributes, reason: "guessed" } }).success).toBe(false);
  });
});
