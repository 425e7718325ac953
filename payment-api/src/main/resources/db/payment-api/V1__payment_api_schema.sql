-- payment-api's own state. The ledger (schema ledger) and the read model (schema reporting) live apart.

-- One row per client idempotency key: the payment it names and a fingerprint of the request it was
-- first used with. Written before the event is published, so a retry re-publishes the same payment.
CREATE TABLE payment_api.idempotency_keys (
    idempotency_key text        PRIMARY KEY CHECK (length(idempotency_key) BETWEEN 1 AND 128),
    request_sha256  bytea       NOT NULL CHECK (octet_length(request_sha256) = 32),
    payment_id      uuid        NOT NULL,
    accepted_at     timestamptz NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);

-- Allocates customer account numbers when the client does not choose one.
CREATE SEQUENCE payment_api.account_numbers AS bigint START WITH 1 MINVALUE 1 NO CYCLE;

-- Display names of participant banks; their accounts live in the ledger.
CREATE TABLE payment_api.banks (
    ispb          integer     PRIMARY KEY CHECK (ispb BETWEEN 0 AND 99999999),
    name          text        NOT NULL CHECK (length(name) BETWEEN 1 AND 140),
    registered_at timestamptz NOT NULL DEFAULT now()
);
