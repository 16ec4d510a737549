-- The key first (lib/db/schema.ts says why): the day's attempts sharing a card, an address or an e-mail are one index range whatever the planner knows.
DROP INDEX "risk_attempts_address_idx";--> statement-breakpoint
DROP INDEX "risk_attempts_card_idx";--> statement-breakpoint
DROP INDEX "risk_attempts_email_idx";--> statement-breakpoint
CREATE INDEX "risk_attempts_address_idx" ON "risk_attempts" USING btree ("address_hash","merchant_id","test_mode","created_at");--> statement-breakpoint
CREATE INDEX "risk_attempts_card_idx" ON "risk_attempts" USING btree ("card_fingerprint","merchant_id","test_mode","created_at");--> statement-breakpoint
CREATE INDEX "risk_attempts_email_idx" ON "risk_attempts" USING btree ("email_hash","merchant_id","test_mode","created_at");--> statement-breakpoint
-- The history read again (migration 0038's reader): a blocked or exempt attempt, which no velocity
-- limit counts (lib/risk/velocity.ts), is no longer read, so a key's refused attempts cost nothing.
CREATE OR REPLACE FUNCTION risk_history(p_merchant text, p_test_mode boolean, p_invoice text, p_card text, p_address text, p_email text)
RETURNS jsonb LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT coalesce(jsonb_agg(jsonb_build_object(
      'invoiceId', s.invoice_id, 'cardFingerprint', s.card_fingerprint, 'addressHash', s.address_hash, 'emailHash', s.email_hash,
      'outcome', s.outcome, 'status', i.status, 'at', (extract(epoch from s.created_at) * 1000)::float8
    ) ORDER BY s.created_at DESC), '[]'::jsonb)
    FROM (
      SELECT u.* FROM (
        (SELECT a.id, a.invoice_id, a.card_fingerprint, a.address_hash, a.email_hash, a.outcome, a.created_at FROM risk_attempts a
          WHERE a.invoice_id = p_invoice AND a.merchant_id = p_merchant AND a.test_mode = p_test_mode AND a.created_at > now() - interval '1 day'
            AND a.outcome IN ('open', 'declined', 'succeeded'))
        UNION
        (SELECT a.id, a.invoice_id, a.card_fingerprint, a.address_hash, a.email_hash, a.outcome, a.created_at FROM risk_attempts a
          WHERE a.card_fingerprint = p_card AND a.merchant_id = p_merchant AND a.test_mode = p_test_mode AND a.created_at > now() - interval '1 day'
            AND a.outcome IN ('open', 'declined', 'succeeded'))
        UNION
        (SELECT a.id, a.invoice_id, a.card_fingerprint, a.address_hash, a.email_hash, a.outcome, a.created_at FROM risk_attempts a
          WHERE a.address_hash = p_address AND a.merchant_id = p_merchant AND a.test_mode = p_test_mode AND a.created_at > now() - interval '1 day'
            AND a.outcome IN ('open', 'declined', 'succeeded'))
        UNION
        (SELECT a.id, a.invoice_id, a.card_fingerprint, a.address_hash, a.email_hash, a.outcome, a.created_at FROM risk_attempts a
          WHERE a.email_hash = p_email AND a.merchant_id = p_merchant AND a.test_mode = p_test_mode AND a.created_at > now() - interval '1 day'
            AND a.outcome IN ('open', 'declined', 'succeeded'))
      ) u ORDER BY u.created_at DESC LIMIT 2000
    ) s JOIN invoices i ON i.id = s.invoice_id
  );
END $$;
