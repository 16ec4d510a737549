/** Per provider request; after it the outcome is unknown and only a status request can tell. */
const PROVIDER_TIMEOUT_MS = 10_000;

/**
 * The timeout in force: `PROVIDER_TIMEOUT_MS` from the environment (100 ms to 120 s), else 10 s.
 * Tests of the sandbox's timeout fault set a short one instead of waiting real seconds; the
 * sandbox reads the same value to know how long "no answer" must last.
 */
export function providerTimeoutMs(): number {
  const configured = Number(process.env.PROVIDER_TIMEOUT_MS?.trim() || Number.NaN);
  return Number.isInteger(configured) && configured >= 100 && configured <= 120_000 ? configured : PROVIDER_TIMEOUT_MS;
}
