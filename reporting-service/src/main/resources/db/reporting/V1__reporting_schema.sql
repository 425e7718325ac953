-- The reporting read model (CQRS read side), projected from the payment events.
-- Flyway runs this in schema `reporting` (spring.flyway.schemas); names are unqualified on purpose.
-- Ids are 128-bit, stored as uuid (16 bytes). Times are timestamptz in microseconds: the projector
-- truncates event instants to microseconds so that what is stored equals what cursors carry.

-- One row per payment, created by whichever of its events is projected first (requested or outcome:
-- every event carries the parties, the amount and acceptedAt). The final state is written once.
CREATE TABLE payments (
    payment_id        uuid        PRIMARY KEY,
    payer_account_id  uuid        NOT NULL,
    payee_account_id  uuid        NOT NULL,
    -- The banks, from the account id scheme (ChartOfAccounts.bankOf); NULL for ids outside it.
    payer_bank_ispb   integer,
    payee_bank_ispb   integer,
    amount_centavos   bigint      NOT NULL CHECK (amount_centavos > 0),
    -- Only PaymentRequested carries these: NULL until it is projected.
    currency          text,
    description       text,
    end_to_end_id     text,
    accepted_at       timestamptz NOT NULL,
    -- When the PaymentRequested was projected (NULL while only the outcome is known).
    requested_at      timestamptz,
    status            text        NOT NULL CHECK (status IN ('ACCEPTED', 'SETTLED', 'REJECTED', 'EXPIRED')),
    reason            text,
    detail            text,
    -- When the outcome happened (the outcome event's occurredAt); set with the final status, never changed.
    final_at          timestamptz,
    projected_at      timestamptz NOT NULL,
    updated_at        timestamptz NOT NULL,
    CONSTRAINT final_state_complete CHECK ((status = 'ACCEPTED') = (final_at IS NULL)),
    CONSTRAINT reason_only_when_rejected CHECK (reason IS NULL OR status = 'REJECTED')
);

-- GET /payments?status=: newest first (payment ids are time-ordered).
CREATE INDEX payments_by_status ON payments (status, payment_id);

-- GET /banks/{ispb}/positions: settled payments of a bank on one UTC day, as payer bank and as payee
-- bank. INCLUDE makes them index-only scans.
CREATE INDEX payments_settled_by_payer_bank ON payments (payer_bank_ispb, final_at)
    INCLUDE (payee_bank_ispb, amount_centavos) WHERE status = 'SETTLED';
CREATE INDEX payments_settled_by_payee_bank ON payments (payee_bank_ispb, final_at)
    INCLUDE (payer_bank_ispb, amount_centavos) WHERE status = 'SETTLED';

-- The account statement: one row per account side of a SETTLED payment (the payer's DEBIT and the
-- payee's CREDIT), written in the transaction that settles the payment. Final states never change,
-- so rows are only ever inserted. The primary key is the keyset order of GET /accounts/{id}/statement:
-- (final_at, payment_id, direction) is unique per account even for a payment from an account to itself.
CREATE TABLE statement_entries (
    account_id               uuid        NOT NULL,
    final_at                 timestamptz NOT NULL,
    payment_id               uuid        NOT NULL,
    direction                text        NOT NULL CHECK (direction IN ('CREDIT', 'DEBIT')),
    counterparty_account_id  uuid        NOT NULL,
    amount_centavos          bigint      NOT NULL CHECK (amount_centavos > 0),
    PRIMARY KEY (account_id, final_at, payment_id, direction)
);

-- GET /stats without counting the payments table: one row, updated with the deltas of each projected
-- poll in the same transaction (a single row, so concurrent consumers cannot deadlock on it).
CREATE TABLE payment_stats (
    id                 smallint    PRIMARY KEY CHECK (id = 1),
    accepted_count     bigint      NOT NULL CHECK (accepted_count >= 0),
    settled_count      bigint      NOT NULL CHECK (settled_count >= 0),
    rejected_count     bigint      NOT NULL CHECK (rejected_count >= 0),
    expired_count      bigint      NOT NULL CHECK (expired_count >= 0),
    max_final_at       timestamptz,
    last_projected_at  timestamptz
);

INSERT INTO payment_stats VALUES (1, 0, 0, 0, 0, NULL, NULL);
