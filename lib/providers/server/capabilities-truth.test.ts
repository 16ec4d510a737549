import { describe, expect, it } from "vitest";
import { PROVIDERS } from "../registry";
import { getProviderServer } from "./servers";

/**
 * What a provider's folder declares it can do (`capabilities`, served by GET /api/providers and read
 * by routing) is what its adapter implements: a provider that declares authorize/capture can capture
 * and be asked about a capture, one that declares void can void and be asked about a void, one that
 * keeps cards can charge and forget a token; and none implements what it does not declare.
 */
describe.each(PROVIDERS.map((provider) => ({ slug: provider.slug, capabilities: provider.capabilities })))(
  "$slug's capabilities match its adapter",
  ({ slug, capabilities }) => {
    const adapter = getProviderServer(slug)!.adapter;
    it("authorize/capture, void and card tokens are declared exactly where the adapter has them", () => {
      expect({
        authorizeCapture: typeof adapter.capture === "function" && typeof adapter.getCaptureStatus === "function",
        void: typeof adapter.voidAuthorization === "function" && typeof adapter.getVoidStatus === "function",
        cardTokens: typeof adapter.tokens?.createPaymentWithToken === "function" && typeof adapter.tokens.deleteToken === "function",
      }).toEqual({ authorizeCapture: capabilities.authorizeCapture, void: capabilities.void, cardTokens: capabilities.cardTokens });
      // Partial capture is a kind of capture, and a hold time belongs to providers that authorize.
      if (capabilities.partialCapture) expect(capabilities.authorizeCapture).toBe(true);
      expect(capabilities.authorizationHoldHours === null).toBe(!capabilities.authorizeCapture);
    });
  },
);
