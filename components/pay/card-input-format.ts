/** As the customer types: digits in groups of four, at most 19 digits. */
export function formatCardNumberInput(value: string): string {
  const digits = value.replace(/\D/g, "").slice(0, 19);
  return digits.replace(/(\d{4})(?=\d)/g, "$1 ");
}

/** As the customer types: "MM/YY", the slash added once the month is complete. */
export function formatExpiryInput(value: string): string {
  const digits = value.replace(/\D/g, "").slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/** A test card's expiry: the current month three years on, so it is always valid. */
export function testCardExpiry(now: Date = new Date()): string {
  const month = String(now.getMonth() + 1).padStart(2, "0");
  return `${month}/${String((now.getFullYear() + 3) % 100).padStart(2, "0")}`;
}
