import { callbackSchemeContract } from "@/tests/fixtures/callback-scheme-contract";
import { providerCCallbacks } from "./callbacks";

const UNTIL = "2031-01-08T10:00:00.000Z";

callbackSchemeContract({
  slug: "provider-c",
  callbacks: providerCCallbacks,
  credentials: { shop_login: "shop-1", shop_password: "pw-one" },
  otherCredentials: { shop_login: "shop-1", shop_password: "pw-two" },
  event: {
    id: "C-ORD-1",
    shop_order_id: "att_1",
    state: "REJECTED",
    amount_minor: 5000,
    currency_code: "AMD",
    paid_minor: 0,
    rejection_reason: "THREE_DS_FAILED",
  },
  expected: {
    about: "attempt",
    merchantReference: "att_1",
    providerReference: "C-ORD-1",
    outcome: { kind: "declined", resolution: "auth_3ds_failed", providerReference: "C-ORD-1", message: "Rejected by Provider C (THREE_DS_FAILED)." },
  },
});

callbackSchemeContract({
  slug: "provider-c",
  callbacks: providerCCallbacks,
  credentials: { shop_login: "shop-1", shop_password: "pw-one" },
  otherCredentials: { shop_login: "shop-1", shop_password: "pw-two" },
  event: { refund: { id: "C-RF-1", shop_refund_id: "rf_1", order_id: "C-ORD-1", state: "REFUNDED", amount_minor: 2500, currency_code: "AMD" } },
  expected: { about: "refund", merchantReference: "rf_1", providerReference: "C-RF-1", outcome: { kind: "succeeded", providerReference: "C-RF-1" } },
});

// Authorize now, capture later: an authorization's notification carries what is reserved and until when.
callbackSchemeContract({
  slug: "provider-c",
  callbacks: providerCCallbacks,
  credentials: { shop_login: "shop-1", shop_password: "pw-one" },
  otherCredentials: { shop_login: "shop-1", shop_password: "pw-two" },
  event: {
    id: "C-ORD-9",
    shop_order_id: "att_9",
    state: "AUTHORIZED",
    amount_minor: 10_000,
    currency_code: "EUR",
    paid_minor: 0,
    authorized_minor: 10_000,
    authorization_expires_at: UNTIL,
  },
  expected: {
    about: "attempt",
    merchantReference: "att_9",
    providerReference: "C-ORD-9",
    outcome: { kind: "succeeded", providerReference: "C-ORD-9", processedAmountMinor: 10_000n, authorized: { until: new Date(UNTIL) } },
  },
});

// Disputes: C's reason and state read as the service's reason and status.
const DUE = "2031-02-01T00:00:00.000Z";
callbackSchemeContract({
  slug: "provider-c",
  callbacks: providerCCallbacks,
  credentials: { shop_login: "shop-1", shop_password: "pw-one" },
  otherCredentials: { shop_login: "shop-1", shop_password: "pw-two" },
  event: {
    dispute: {
      id: "C-DSP-1",
      order_id: "C-ORD-1",
      shop_order_id: "att_1",
      state: "LOST",
      reason: "GOODS_NOT_AS_DESCRIBED",
      amount_minor: 4_200,
      currency_code: "AMD",
      respond_by: DUE,
    },
  },
  expected: {
    about: "dispute",
    providerReference: "C-DSP-1",
    dispute: {
      disputeReference: "C-DSP-1",
      paymentReference: "C-ORD-1",
      paymentKey: "att_1",
      amountMinor: 4_200n,
      currency: "AMD",
      reason: "not_as_described",
      providerReason: "GOODS_NOT_AS_DESCRIBED",
      status: "lost",
      evidenceDueBy: new Date(DUE),
    },
  },
});
