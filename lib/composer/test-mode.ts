/**
 * Support members compose test-mode invoices only. The server action reads the body it
 * is about to post: anything but `test_mode: true` would make a live invoice. An unparseable body
 * counts as not live here; the API answers it with 400 and creates nothing.
 */
export function requestsLiveInvoice(body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  const attributes = (parsed as { data?: { attributes?: { test_mode?: unknown } } } | null)?.data?.attributes;
  return attributes?.test_mode !== true;
}
