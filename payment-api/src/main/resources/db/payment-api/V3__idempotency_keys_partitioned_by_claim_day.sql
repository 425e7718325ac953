-- Idempotency keys are kept for a retention window, then removed in bulk (issue 16): the table is partitioned by
-- claim day (UTC), and the retention job (JdbcIdempotencyPartitions) creates partitions ahead and drops whole
-- partitions past the window. Never a row-by-row DELETE on the intake's hottest table.
--
-- Uniqueness. A partitioned table's unique constraints must include the partition key, so the primary key is
-- (participant, idempotency_key, claimed_on): by itself it only makes a key unique within one day. A key is
-- unique within the window because a claim is a replay whenever a row for (participant, key) exists in ANY
-- partition (the claim looks in all of them in the same statement), and inserts only when none does:
--   * two claims of one key on the same day meet on the primary key (ON CONFLICT DO NOTHING; the loser claims
--     again and finds the winner's row);
--   * claims on different days cannot both miss each other's row, because claims of adjacent days never run at
--     the same time: each claim transaction first locks the empty table idempotency_claim_days, in ROW EXCLUSIVE
--     mode on even days and SHARE mode on odd days. Each mode is compatible with itself (the claims of one day run
--     in parallel) and conflicts with the other (a claim of day D+1 waits for the claims of day D still running,
--     then its statement's snapshot sees their rows; and the reverse). Days two apart share a parity but cannot
--     overlap: a claim lasts at most the statement timeout.
--
-- Not a rolling upgrade (as V2): stop every payment-api instance, migrate, start the new version.

-- Only its lock is used; it never holds a row.
CREATE TABLE payment_api.idempotency_claim_days ();

ALTER TABLE payment_api.idempotency_keys RENAME TO idempotency_keys_unpartitioned;
ALTER INDEX payment_api.idempotency_keys_pkey RENAME TO idempotency_keys_unpartitioned_pkey;

CREATE TABLE payment_api.idempotency_keys (
    participant     text        NOT NULL CHECK (participant ~ '^(ispb-[0-9]{8}|operator|pre-identity)$'),
    idempotency_key text        NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 128),
    request_sha256  bytea       NOT NULL CHECK (octet_length(request_sha256) = 32),
    payment_id      uuid        NOT NULL,
    accepted_at     timestamptz NOT NULL,
    -- The UTC day of accepted_at (the claim time): the partition the row lives in, and when it expires.
    claimed_on      date        NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (participant, idempotency_key, claimed_on)
) PARTITION BY RANGE (claimed_on);

-- Rows claimed before today go to one partition, dropped whole once today is past the window; today and the
-- next three days get daily partitions (the job keeps creating them ahead). A bounded loop: four days.
DO $$
DECLARE
    today date := (now() AT TIME ZONE 'UTC')::date;
BEGIN
    EXECUTE format('CREATE TABLE payment_api.%I PARTITION OF payment_api.idempotency_keys'
            || ' FOR VALUES FROM (MINVALUE) TO (%L)', 'idempotency_keys_before_' || to_char(today, 'YYYYMMDD'), today);
    FOR day_offset IN 0..3 LOOP
        EXECUTE format('CREATE TABLE payment_api.%I PARTITION OF payment_api.idempotency_keys FOR VALUES FROM (%L) TO (%L)',
                'idempotency_keys_' || to_char(today + day_offset, 'YYYYMMDD'), today + day_offset, today + day_offset + 1);
    END LOOP;
END
$$;

-- Existing keys keep naming their payments: a replay after the upgrade is still a replay. A claim time in the
-- future (a clock ahead) is filed under today, so that it fits a partition.
INSERT INTO payment_api.idempotency_keys (participant, idempotency_key, request_sha256, payment_id, accepted_at,
        claimed_on, created_at)
SELECT participant, idempotency_key, request_sha256, payment_id, accepted_at,
       LEAST((accepted_at AT TIME ZONE 'UTC')::date, (now() AT TIME ZONE 'UTC')::date), created_at
FROM payment_api.idempotency_keys_unpartitioned;

DROP TABLE payment_api.idempotency_keys_unpartitioned;

-- Account numbers are no longer a sequence (issue 16, item 8: a sequence lets a bank guess other banks'
-- customers); they are drawn at random (RandomAccountNumbers).
DROP SEQUENCE payment_api.account_numbers;
