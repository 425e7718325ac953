-- Infraction reports (MED, docs/med.md): one per payment (its id derives from the payment's), filed by the payer's
-- bank under its Idempotency-Key; and each report's trace, one row per account the money was found in. The holds
-- themselves are the ledger's: these rows say where they are, the ledger what they hold.
CREATE TABLE payment_api.infraction_reports (
    report_id        uuid        PRIMARY KEY,
    payment_id       uuid        NOT NULL UNIQUE,
    payer_bank       integer     NOT NULL CHECK (payer_bank BETWEEN 0 AND 99999999),
    payee_bank       integer     NOT NULL CHECK (payee_bank BETWEEN 0 AND 99999999),
    amount_centavos  bigint      NOT NULL CHECK (amount_centavos > 0),
    reason           text        NOT NULL CHECK (reason IN ('FRAUD', 'COERCION', 'OPERATIONAL_FAILURE')),
    details          text        CHECK (length(details) <= 1000),
    status           text        NOT NULL
                                 CHECK (status IN ('FILING', 'HOLDING', 'OPEN', 'ACCEPTED', 'REJECTED', 'ESCALATED')),
    filed_at         timestamptz NOT NULL,
    analyse_by       timestamptz NOT NULL CHECK (analyse_by > filed_at),
    hold_until       timestamptz NOT NULL CHECK (hold_until >= analyse_by),
    decided_at       timestamptz,
    decision_reason  text        CHECK (length(decision_reason) <= 1000),
    cut_timestamp    bigint      NOT NULL,
    truncated        boolean,
    request_key      text        NOT NULL CHECK (length(request_key) BETWEEN 1 AND 128),
    CHECK ((status IN ('FILING', 'HOLDING', 'OPEN')) = (decided_at IS NULL))
);
CREATE UNIQUE INDEX infraction_reports_request ON payment_api.infraction_reports (payer_bank, request_key);
CREATE INDEX infraction_reports_due ON payment_api.infraction_reports (analyse_by) WHERE status = 'OPEN';
CREATE INDEX infraction_reports_filing ON payment_api.infraction_reports (filed_at) WHERE status IN ('FILING', 'HOLDING');

CREATE TABLE payment_api.infraction_trace (
    report_id        uuid        NOT NULL REFERENCES payment_api.infraction_reports (report_id),
    position         smallint    NOT NULL CHECK (position BETWEEN 0 AND 63),
    hop              smallint    NOT NULL CHECK (hop BETWEEN 0 AND 5),
    account_id       uuid        NOT NULL,
    traced_centavos  bigint      NOT NULL CHECK (traced_centavos >= 0),
    held_centavos    bigint      NOT NULL CHECK (held_centavos BETWEEN 0 AND traced_centavos),
    parent           smallint    NOT NULL CHECK (parent BETWEEN -1 AND 63),
    via_payment_id   uuid        NOT NULL,
    arrived_at       bigint      NOT NULL,
    PRIMARY KEY (report_id, position)
);
