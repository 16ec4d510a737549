import { eq, inArray, isNotNull, sql, type SQL } from "drizzle-orm";
import { invoiceAttempts, invoices } from "@/lib/db/schema";
import { directionOfId } from "./get-invoice";

/**
 * The dashboard's search box: one text finds an invoice by any of its keys. Each kind of key is
 * its own condition, run as its own branch of the list query (lib/invoices/read/list-invoices.ts)
 * so each is one index probe (indexes in lib/db/schema.ts), and the branches' pages are merged:
 *
 * | key | matches | index |
 * |---|---|---|
 * | invoice id (`cpi_…`, `cpoi_…`) | exactly | the primary key |
 * | `reference_id` | its beginning, ignoring case (LIKE's wildcards taken literally) | as a name: the list's index newest first, else invoices_search_reference_idx (text_pattern_ops) |
 * | provider reference (the provider's payment id on an attempt) | exactly | invoice_attempts_provider_reference_idx |
 * | customer e-mail (text with `@`) | exactly, ignoring case and surrounding blanks | invoices_search_email_idx |
 * | customer name (text without `@`) | its beginning, ignoring case | the list's index newest first, else invoices_search_name_idx (text_pattern_ops): see list-invoices.ts |
 * | card last four (four digits) | exactly | invoices_search_last_four_idx |
 *
 * The customer is the resolved one (as sent, with the connection's constants): what the invoice page shows.
 */

export const SEARCH_MAX = 200;

export type SearchKind = "id" | "reference" | "provider_reference" | "email" | "name" | "last_four";

/** What a search text can be, in the order the page names them. */
function searchKinds(text: string): SearchKind[] {
  const kinds: SearchKind[] = [];
  if (directionOfId(text)) kinds.push("id");
  kinds.push("reference", "provider_reference");
  if (text.includes("@")) kinds.push("email");
  else kinds.push("name");
  if (/^\d{4}$/.test(text)) kinds.push("last_four");
  return kinds;
}

const emailExpression = sql`lower(btrim(${invoices.resolvedCustomer} ->> 'email'))`;
/** The reference as its search index holds it (lower case). */
const referenceExpression = sql`lower(${invoices.referenceId})`;
/** The customer's name as the name index holds it (lower case, trimmed). */
const nameExpression = sql`lower(btrim(${invoices.resolvedCustomer} ->> 'name'))`;

/**
 * `name` (a lower-cased, trimmed name: the index's expression, or a column holding it) starts with
 * lower(text), as the range text_pattern_ops indexes (byte order, which for UTF-8 is code point
 * order): from the prefix to the prefix with its last character raised by one, skipping the
 * surrogates chr() refuses. A null name is in no range.
 */
export function nameInPrefixRange(name: SQL, text: string): SQL {
  const low = sql`lower(${text}::text)`;
  const last = sql`ascii(right(${low}, 1))`;
  const high = sql`(left(${low}, -1) || chr(case when ${last} = 55295 then 57344 else least(${last} + 1, 1114111) end))`;
  return sql`${name} ~>=~ ${low} and ${name} ~<~ ${high}`;
}

/** LIKE's wildcards and its escape character, taken literally. */
export const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The reference starts with the text, case ignored: the LIKE says what is meant, the range (the
 * same prefix) is what reads invoices_search_reference_idx under any collation.
 */
function referencePrefix(text: string): SQL {
  return sql`${referenceExpression} like lower(${escapeLike(text)}::text) || '%' and ${nameInPrefixRange(referenceExpression, text)}`;
}

function namePrefix(text: string): SQL {
  return sql`${nameInPrefixRange(nameExpression, text)} and ${isNotNull(sql`${invoices.resolvedCustomer} ->> 'name'`)}`;
}

/** The condition of each kind of key the text can be; `direction` is the list's filter, if any. */
export function searchConditions(text: string): { kind: SearchKind; where: SQL; prefixOf?: SQL }[] {
  return searchKinds(text).map((kind) => {
    switch (kind) {
      case "id":
        return { kind, where: eq(invoices.id, text) };
      case "reference":
        // A prefix, like a name's: many invoices may match, so the list reads it as it reads a name.
        return { kind, where: referencePrefix(text), prefixOf: referenceExpression };
      case "provider_reference":
        return {
          kind,
          where: inArray(invoices.id, sql`(select ${invoiceAttempts.invoiceId} from ${invoiceAttempts} where ${invoiceAttempts.providerReference} = ${text})`),
        };
      case "email":
        return { kind, where: sql`${emailExpression} = lower(btrim(${text}::text)) and (${invoices.resolvedCustomer} ->> 'email') is not null` };
      case "name":
        return { kind, where: namePrefix(text), prefixOf: nameExpression };
      case "last_four":
        return { kind, where: eq(invoices.cardLastFour, text) };
    }
  });
}
