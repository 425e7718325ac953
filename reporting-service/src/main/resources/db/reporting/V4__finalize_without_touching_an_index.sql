-- A payment's row is written twice: inserted ACCEPTED when its request is projected, then finalized when its outcome
-- is. Measured at 12,000 payments/s (issue 19, pg_stat_statements over 100 s): the finalize was PostgreSQL's largest
-- cost, 1,466 bytes of WAL per row and ~60 % of the read model's statement time, because it changed `status` and
-- `final_at`, which three indexes cover: PostgreSQL then writes a whole new row version and a new entry in every index
-- of the table (no HOT update). After this migration no index of `payments` covers a column the finalize changes, and
-- each page keeps room for its rows' new versions, so the finalize is a heap-only (HOT) update: the new version on the
-- same page, no index entry at all.
--
-- What the three indexes served moves to tables the projection writes in the same transaction:
--   * a bank's daily positions (payments_settled_by_payer_bank / _by_payee_bank): bank_day_positions, one row per bank
--     and UTC day, added to per poll (as bank_flows), so GET /banks/{ispb}/positions reads one row instead of a day's
--     payments;
--   * the listing by status (payments_by_status): ACCEPTED and SETTLED payments are the newest, found by the primary
--     key's backward scan; REJECTED and EXPIRED ones are rare, and listed through payments_not_settled (status,
--     payment_id), an insert-only index of them.

-- One row per bank and UTC day of final_at: its SETTLED payments as payer bank to another bank (or to an account outside
-- the id scheme), as payee bank from another, and on-us (both sides at this bank), with their counts.
CREATE TABLE bank_day_positions (
    bank_ispb          integer NOT NULL CHECK (bank_ispb BETWEEN 0 AND 99999999),
    day                date    NOT NULL,
    sent_centavos      bigint  NOT NULL CHECK (sent_centavos >= 0),
    sent_count         bigint  NOT NULL CHECK (sent_count >= 0),
    received_centavos  bigint  NOT NULL CHECK (received_centavos >= 0),
    received_count     bigint  NOT NULL CHECK (received_count >= 0),
    on_us_centavos     bigint  NOT NULL CHECK (on_us_centavos >= 0),
    on_us_count        bigint  NOT NULL CHECK (on_us_count >= 0),
    PRIMARY KEY (bank_ispb, day)
);

INSERT INTO bank_day_positions (bank_ispb, day, sent_centavos, sent_count, received_centavos, received_count,
        on_us_centavos, on_us_count)
SELECT bank, day, sum(sent), sum(sent_n), sum(received), sum(received_n), sum(on_us), sum(on_us_n) FROM (
    SELECT payer_bank_ispb AS bank, (final_at AT TIME ZONE 'UTC')::date AS day,
           CASE WHEN payee_bank_ispb IS DISTINCT FROM payer_bank_ispb THEN amount_centavos ELSE 0 END AS sent,
           CASE WHEN payee_bank_ispb IS DISTINCT FROM payer_bank_ispb THEN 1 ELSE 0 END AS sent_n,
           0::bigint AS received, 0 AS received_n,
           CASE WHEN payee_bank_ispb = payer_bank_ispb THEN amount_centavos ELSE 0 END AS on_us,
           CASE WHEN payee_bank_ispb = payer_bank_ispb THEN 1 ELSE 0 END AS on_us_n
    FROM payments
    WHERE status = 'SETTLED' AND payer_bank_ispb IS NOT NULL
    UNION ALL
    SELECT payee_bank_ispb, (final_at AT TIME ZONE 'UTC')::date, 0, 0, amount_centavos, 1, 0, 0
    FROM payments
    WHERE status = 'SETTLED' AND payee_bank_ispb IS NOT NULL AND payer_bank_ispb IS DISTINCT FROM payee_bank_ispb
) settled
GROUP BY bank, day;

-- The REJECTED and EXPIRED payments, newest last in key order: written with their final state, never changed.
CREATE TABLE payments_not_settled (
    status      text NOT NULL CHECK (status IN ('REJECTED', 'EXPIRED')),
    payment_id  uuid NOT NULL,
    PRIMARY KEY (status, payment_id)
);

INSERT INTO payments_not_settled (status, payment_id)
SELECT status, payment_id FROM payments WHERE status IN ('REJECTED', 'EXPIRED');

DROP INDEX payments_by_status;
DROP INDEX payments_settled_by_payer_bank;
DROP INDEX payments_settled_by_payee_bank;

-- Room on each new page for all its rows' second versions: a poll inserts a run of consecutive payments, and a later
-- poll usually finalizes the same run in one statement, before any old version on the page can be pruned (the
-- statement's own updates are not dead yet), so a page needs room for a new version of every row it holds. The row
-- grows by its final state only, so half a page. Pages written before this migration keep theirs.
ALTER TABLE payments SET (fillfactor = 50);
