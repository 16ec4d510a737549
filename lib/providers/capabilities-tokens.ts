/**
 * Which providers keep a card behind a token (saved cards, issue 39; the lead's table in
 * docs/decisions.md). A stand-in until the capability registry each provider folder declares
 * replaces it: keep it this small.
 */
const CARD_TOKEN_PROVIDERS: ReadonlySet<string> = new Set(["provider-a", "provider-b", "provider-c", "provider-d", "provider-f"]);

export function supportsCardTokens(provider: string): boolean {
  return CARD_TOKEN_PROVIDERS.has(provider);
}
