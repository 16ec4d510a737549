import * as z from "zod/mini";
import type { CardInput } from "@/lib/providers/kit/adapter";
import {
  CARD_MESSAGES,
  cardDigits,
  cardNumberMessage,
  cvcMessage,
  expiryMessage,
  holderMessage,
  parseExpiry,
  passesLuhn,
  type CardCheckOptions,
} from "./card-checks";

/**
 * The hosted page's card form on the server: Pay (`POST /pay/{id}/pay`) trusts nothing the
 * browser checked. Its checks are card-checks.ts's, the same functions the browser runs (without
 * zod, to keep the page's script small: the page is for phones). No message ever repeats what was
 * typed.
 * It parses into the card as the provider call takes it (CardInput).
 */

export type CardSchemaOptions = CardCheckOptions;

export { parseExpiry, passesLuhn };

function checked(message: (value: string) => string | undefined, required: string) {
  return z.string({ error: required }).check(
    z.superRefine((value, context) => {
      const text = message(value);
      if (text) context.addIssue({ code: "custom", message: text });
    }),
  );
}

export function cardSchema(options: CardSchemaOptions) {
  const now = () => options.now ?? new Date();
  const cvc = options.takesCvc ? checked(cvcMessage, CARD_MESSAGES.cvc) : z.optional(z.string());
  return z.pipe(
    z.object({
      number: checked(cardNumberMessage, CARD_MESSAGES.number),
      expiry: checked((value) => expiryMessage(value, now()), CARD_MESSAGES.expiry),
      cvc,
      holder: checked(holderMessage, CARD_MESSAGES.holder),
    }),
    z.transform((values): CardInput => {
      const expiry = parseExpiry(values.expiry)!;
      return {
        number: cardDigits(values.number),
        expiryMonth: expiry.month,
        expiryYear: expiry.year,
        ...(options.takesCvc && values.cvc ? { cvc: values.cvc.trim() } : {}),
        holder: values.holder.trim(),
      };
    }),
  );
}
