-- The online reconciliation reads what the projection wrote in projection order, and compares account
-- balances with totals the projection keeps: no reconciliation query grows with the payments table.

-- The transaction that inserted the row (its xid, set once: an UPDATE does not change it). The
-- reconciliation walks payments by (projected_xid, payment_id) and only below the oldest transaction still
-- running (pg_snapshot_xmin): a transaction that commits later has an xid at or above it, so a row can never
-- appear behind the cursor, whether the payment was accepted seconds or hours before it was projected, and
-- whichever of several concurrent consumers commits first. Existing rows get this migration's xid.
ALTER TABLE payments ADD COLUMN projected_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX payments_by_projection ON payments (projected_xid, payment_id);

-- Each customer account's settled payments, out of it and into it, kept by the transaction that writes the
-- statement entries (the same rows: Σ of the account's DEBIT and CREDIT entries).
CREATE TABLE account_flows (
    account_id         uuid   PRIMARY KEY,
    outgoing_centavos  bigint NOT NULL CHECK (outgoing_centavos >= 0),
    incoming_centavos  bigint NOT NULL CHECK (incoming_centavos >= 0)
);

-- Each bank's settled interbank payments, sent and received (on-us payments never touch a bank's reserve
-- or transit), kept by the transaction that settles the payment.
CREATE TABLE bank_flows (
    bank_ispb           integer PRIMARY KEY CHECK (bank_ispb BETWEEN 0 AND 99999999),
    sent_centavos       bigint  NOT NULL CHECK (sent_centavos >= 0),
    received_centavos   bigint  NOT NULL CHECK (received_centavos >= 0)
);

INSERT INTO account_flows (account_id, outgoing_centavos, incoming_centavos)
SELECT account_id,
       coalesce(sum(amount_centavos) FILTER (WHERE direction = 'DEBIT'), 0),
       coalesce(sum(amount_centavos) FILTER (WHERE direction = 'CREDIT'), 0)
FROM statement_entries
GROUP BY account_id;

INSERT INTO bank_flows (bank_ispb, sent_centavos, received_centavos)
SELECT bank, sum(sent), sum(received) FROM (
    SELECT payer_bank_ispb AS bank, amount_centavos AS sent, 0::bigint AS received
    FROM payments
    WHERE status = 'SETTLED' AND payer_bank_ispb IS NOT NULL AND payee_bank_ispb <> payer_bank_ispb
    UNION ALL
    SELECT payee_bank_ispb, 0::bigint, amount_centavos
    FROM payments
    WHERE status = 'SETTLED' AND payee_bank_ispb IS NOT NULL AND payer_bank_ispb <> payee_bank_ispb
) flows
GROUP BY bank;
