-- The key directory (DICT): PIX keys, the anti-scanning buckets of look-ups, and the end-to-end ids look-ups reserve
-- (docs/directory.md). A rolling upgrade is safe: new tables only.

-- One row per key; a key's value alone is unique, as the five types' formats never overlap (KeyType.of).
CREATE TABLE payment_api.directory_keys (
    key_value      text        PRIMARY KEY CHECK (length(key_value) BETWEEN 1 AND 77),
    key_type       text        NOT NULL CHECK (key_type IN ('CPF', 'CNPJ', 'PHONE', 'EMAIL', 'EVP')),
    account_id     uuid        NOT NULL,
    -- The bank that registered it (its principal), which holds the account.
    participant    text        NOT NULL CHECK (participant ~ '^ispb-[0-9]{8}$'),
    holder_name    text        NOT NULL CHECK (length(holder_name) BETWEEN 1 AND 140),
    holder_tax_id  text        NOT NULL CHECK (length(holder_tax_id) IN (11, 14)),
    created_at     timestamptz NOT NULL,
    -- A random key's (EVP's) Idempotency-Key: a retry of its registration answers the key made the first time.
    request_key    text        CHECK (length(request_key) BETWEEN 1 AND 128)
);
CREATE INDEX directory_keys_account ON payment_api.directory_keys (account_id);
CREATE UNIQUE INDEX directory_keys_request ON payment_api.directory_keys (participant, request_key)
    WHERE request_key IS NOT NULL;

-- A token bucket per bank (payer_id '') and per end user of each bank, refilled on PostgreSQL's clock, never deleted,
-- so a restart forgives no scan. Tokens may go below zero: a miss is charged after it is known.
CREATE TABLE payment_api.directory_buckets (
    participant  text             NOT NULL,
    payer_id     text             NOT NULL,
    tokens       double precision NOT NULL,
    refilled_at  timestamptz      NOT NULL,
    PRIMARY KEY (participant, payer_id)
);

-- The end-to-end id each look-up reserved, for the payment that follows: it names the look-up, the key, the account
-- found and the end user. Partitioned by day like the idempotency keys, whole days dropped past the retention window.
CREATE TABLE payment_api.directory_lookups (
    participant    text        NOT NULL,
    end_to_end_id  text        NOT NULL CHECK (length(end_to_end_id) = 32),
    key_value      text        NOT NULL,
    key_type       text        NOT NULL,
    account_id     uuid        NOT NULL,
    payer_id       text        NOT NULL,
    looked_up_at   timestamptz NOT NULL,
    looked_up_on   date        NOT NULL,
    paid_at        timestamptz,
    PRIMARY KEY (participant, end_to_end_id, looked_up_on)
) PARTITION BY RANGE (looked_up_on);

DO $$
DECLARE
    today date := (now() AT TIME ZONE 'UTC')::date;
BEGIN
    EXECUTE format('CREATE TABLE payment_api.%I PARTITION OF payment_api.directory_lookups'
            || ' FOR VALUES FROM (MINVALUE) TO (%L)', 'directory_lookups_before_' || to_char(today, 'YYYYMMDD'), today);
    FOR day_offset IN 0..3 LOOP
        EXECUTE format('CREATE TABLE payment_api.%I PARTITION OF payment_api.directory_lookups FOR VALUES FROM (%L) TO (%L)',
                'directory_lookups_' || to_char(today + day_offset, 'YYYYMMDD'), today + day_offset, today + day_offset + 1);
    END LOOP;
END
$$;
