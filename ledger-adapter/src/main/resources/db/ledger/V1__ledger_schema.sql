-- The PostgreSQL ledger: TigerBeetle 0.16.30 semantics on two tables.
-- Ids are 128-bit, stored as uuid (16 bytes, compared bytewise = unsigned big-endian order).
-- Amounts and balances are bigint (centavos): the port's limit is 2^63-1 per balance field.

CREATE TABLE accounts (
    id              uuid     PRIMARY KEY,
    ledger          integer  NOT NULL,
    code            integer  NOT NULL,
    flags           integer  NOT NULL,
    debits_pending  bigint   NOT NULL DEFAULT 0,
    debits_posted   bigint   NOT NULL DEFAULT 0,
    credits_pending bigint   NOT NULL DEFAULT 0,
    credits_posted  bigint   NOT NULL DEFAULT 0,
    user_data_128   uuid     NOT NULL,
    user_data_64    bigint   NOT NULL,
    user_data_32    integer  NOT NULL,
    "timestamp"     bigint   NOT NULL,
    CONSTRAINT balances_not_negative
        CHECK (debits_pending >= 0 AND debits_posted >= 0 AND credits_pending >= 0 AND credits_posted >= 0),
    -- The engine enforces the limits; the database refuses a violation too (belt and braces).
    CONSTRAINT debits_must_not_exceed_credits
        CHECK (flags & 2 = 0 OR debits_pending + debits_posted <= credits_posted),
    CONSTRAINT credits_must_not_exceed_debits
        CHECK (flags & 4 = 0 OR credits_pending + credits_posted <= debits_posted)
);

CREATE TABLE transfers (
    id                uuid     PRIMARY KEY,
    debit_account_id  uuid     NOT NULL,
    credit_account_id uuid     NOT NULL,
    amount            bigint   NOT NULL CHECK (amount >= 0),
    pending_id        uuid     NOT NULL,
    user_data_128     uuid     NOT NULL,
    user_data_64      bigint   NOT NULL,
    user_data_32      integer  NOT NULL,
    timeout           integer  NOT NULL,
    ledger            integer  NOT NULL,
    code              integer  NOT NULL,
    flags             integer  NOT NULL,
    "timestamp"       bigint   NOT NULL,
    -- Two-phase state of a pending transfer (flags & 2): 1 pending, 2 posted, 3 voided, 4 expired.
    -- NULL for every other transfer. The only column ever updated.
    pending_status    smallint,
    -- Nanoseconds; NULL when the pending transfer has no timeout.
    expires_at        bigint,
    CONSTRAINT pending_state_only_on_pending
        CHECK ((flags & 2 = 2) = (pending_status IS NOT NULL))
);

-- Due pending transfers of the accounts a batch touches (expiry without a sweeper), and the sweeper's scan.
CREATE INDEX transfers_open_pending_by_debit  ON transfers (debit_account_id, expires_at)  WHERE pending_status = 1 AND expires_at IS NOT NULL;
CREATE INDEX transfers_open_pending_by_credit ON transfers (credit_account_id, expires_at) WHERE pending_status = 1 AND expires_at IS NOT NULL;
CREATE INDEX transfers_open_pending_expiry    ON transfers (expires_at)                   WHERE pending_status = 1 AND expires_at IS NOT NULL;

-- Ids of transfers that failed with a transient result (exceeds_credits, *_not_found...): as in
-- TigerBeetle 0.16.30, such an id can never be used again (id_already_failed).
CREATE TABLE failed_transfer_ids (
    id     uuid     PRIMARY KEY,
    result smallint NOT NULL
);
