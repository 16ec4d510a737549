ALTER TABLE "risk_settings" ADD COLUMN "version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The attempts of the last day (the longest window a limit may have) sharing a key with one Pay:
-- its invoice, card, client address or e-mail, newest first, at most 2,000, with the invoice's
-- status (lib/risk/store.ts reads an open attempt of a paid invoice as a success). One index range
-- per key, so a busy merchant's other attempts are never read. PL/pgSQL, so its plan is kept.
CREATE FUNCTION risk_history(p_merchant text, p_test_mode boolean, p_invoice text, p_card text, p_address text, p_email text)
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
          WHERE a.merchant_id = p_merchant AND a.test_mode = p_test_mode AND a.created_at > now() - interval '1 day' AND a.invoice_id = p_invoice)
        UNION
        (SELECT a.id, a.invoice_id, a.card_fingerprint, a.address_hash, a.email_hash, a.outcome, a.created_at FROM risk_attempts a
          WHERE a.merchant_id = p_merchant AND a.test_mode = p_test_mode AND a.created_at > now() - interval '1 day' AND a.card_fingerprint = p_card)
        UNION
        (SELECT a.id, a.invoice_id, a.card_fingerprint, a.address_hash, a.email_hash, a.outcome, a.created_at FROM risk_attempts a
          WHERE a.merchant_id = p_merchant AND a.test_mode = p_test_mode AND a.created_at > now() - interval '1 day' AND a.address_hash = p_address)
        UNION
        (SELECT a.id, a.invoice_id, a.card_fingerprint, a.address_hash, a.email_hash, a.outcome, a.created_at FROM risk_attempts a
          WHERE a.merchant_id = p_merchant AND a.test_mode = p_test_mode AND a.created_at > now() - interval '1 day' AND a.email_hash = p_email)
      ) u ORDER BY u.created_at DESC LIMIT 2000
    ) s JOIN invoices i ON i.id = s.invoice_id
  );
END $$;
--> statement-breakpoint
-- One Pay's risk attempt, in one statement (lib/risk/check.ts): the merchant's lock for its mode (a
-- transaction advisory lock: Pays of one merchant and mode, on every instance of one PostgreSQL,
-- take turns from here to the end of the statement's transaction), the rules version, the history
-- read after the lock (each statement of a volatile function sees what committed before it), and
-- the attempt recorded, which the next Pay's history counts. An exempt attempt reads no history.
CREATE FUNCTION risk_pay_attempt(
  p_id text, p_merchant text, p_test_mode boolean, p_invoice text, p_card text, p_card_label text, p_card_bin text,
  p_address text, p_email text, p_outcome text, p_amount text, p_currency text
) RETURNS jsonb LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  v_version integer;
  v_history jsonb := '[]'::jsonb;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('risk:' || p_merchant || ':' || CASE WHEN p_test_mode THEN 'test' ELSE 'live' END, 0));
  SELECT s.version INTO v_version FROM risk_settings s WHERE s.merchant_id = p_merchant;
  IF p_outcome = 'open' THEN
    v_history := risk_history(p_merchant, p_test_mode, p_invoice, p_card, p_address, p_email);
  END IF;
  INSERT INTO risk_attempts (id, merchant_id, test_mode, invoice_id, card_fingerprint, card_label, card_bin, address_hash, email_hash, outcome, amount, currency)
    VALUES (p_id, p_merchant, p_test_mode, p_invoice, p_card, p_card_label, p_card_bin, p_address, p_email, p_outcome, p_amount, p_currency);
  RETURN jsonb_build_object('version', coalesce(v_version, 0), 'now', (extract(epoch from now()) * 1000)::float8, 'history', v_history);
END $$;
