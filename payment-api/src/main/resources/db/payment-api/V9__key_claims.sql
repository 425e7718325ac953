-- Claims on keys between banks (docs/directory.md): one row per claim; at most one open claim per key. The claimer's
-- Idempotency-Key names its claim: the same request again answers it.
CREATE TABLE payment_api.directory_claims (
    claim_id          uuid        PRIMARY KEY,
    claim_type        text        NOT NULL CHECK (claim_type IN ('OWNERSHIP', 'PORTABILITY')),
    key_value         text        NOT NULL,
    key_type          text        NOT NULL,
    claimer           text        NOT NULL CHECK (claimer ~ '^ispb-[0-9]{8}$'),
    claimer_account   uuid        NOT NULL,
    holder_name       text        NOT NULL CHECK (length(holder_name) BETWEEN 1 AND 140),
    holder_tax_id     text        NOT NULL CHECK (length(holder_tax_id) IN (11, 14)),
    donor             text        NOT NULL CHECK (donor ~ '^ispb-[0-9]{8}$' AND donor <> claimer),
    donor_account     uuid        NOT NULL,
    status            text        NOT NULL CHECK (status IN ('OPEN', 'COMPLETED', 'CANCELLED')),
    resolution        text,
    opened_at         timestamptz NOT NULL,
    resolve_by        timestamptz NOT NULL CHECK (resolve_by > opened_at),
    resolved_at       timestamptz,
    request_key       text        NOT NULL CHECK (length(request_key) BETWEEN 1 AND 128),
    CHECK ((status = 'OPEN') = (resolution IS NULL) AND (status = 'OPEN') = (resolved_at IS NULL))
);
CREATE UNIQUE INDEX directory_claims_open_key ON payment_api.directory_claims (key_value) WHERE status = 'OPEN';
CREATE UNIQUE INDEX directory_claims_request ON payment_api.directory_claims (claimer, request_key);
CREATE INDEX directory_claims_due ON payment_api.directory_claims (resolve_by) WHERE status = 'OPEN';
CREATE INDEX directory_claims_donor ON payment_api.directory_claims (donor, status, opened_at);
CREATE INDEX directory_claims_claimer ON payment_api.directory_claims (claimer, status, opened_at);
