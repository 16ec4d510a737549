/**
 * CSV text as RFC 4180 writes it, made safe to open in a spreadsheet: a text cell that a
 * spreadsheet would read as a formula (it starts with `=`, `+`, `-`, `@`, a tab or a carriage
 * return: CSV injection, OWASP) gets a leading `'`, which spreadsheets show as text. Numbers are
 * written as they are: a decimal amount such as `-5.00` is a number, not a formula, so a column
 * of amounts stays summable (amounts of invoices are positive anyway).
 */

const FORMULA_START = /^[=+\-@\t\r]/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvValue = string | number | bigint | boolean | null | undefined;

/** One cell: `numeric` cells that are decimal numbers are left as numbers; any other text is escaped. */
export function csvCell(value: CsvValue, { numeric = false }: { numeric?: boolean } = {}): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  const isNumber = typeof value === "number" || typeof value === "bigint" || (numeric && DECIMAL.test(text));
  if (!isNumber && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Lines end with CRLF (RFC 4180 2.1). */
const CSV_LINE_END = "\r\n";

export type CsvColumn<T> = { header: string; value: (row: T) => CsvValue; numeric?: boolean };

export function csvHeader<T>(columns: readonly CsvColumn<T>[]): string {
  return columns.map((column) => csvCell(column.header)).join(",") + CSV_LINE_END;
}

export function csvLine<T>(columns: readonly CsvColumn<T>[], row: T): string {
  return columns.map((column) => csvCell(column.value(row), { numeric: column.numeric })).join(",") + CSV_LINE_END;
}
