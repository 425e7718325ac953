-- The refund of an accepted infraction report (MED, docs/med.md): how much its payer's bank asked for and when, and
-- what the ledger answered for each hold's share. The refunds themselves are returns, settled by clearing; their ids
-- derive from the report's and the trace position.
ALTER TABLE payment_api.infraction_reports DROP CONSTRAINT infraction_reports_status_check;
ALTER TABLE payment_api.infraction_reports ADD CONSTRAINT infraction_reports_status_check
    CHECK (status IN ('FILING', 'HOLDING', 'OPEN', 'ACCEPTED', 'REJECTED', 'ESCALATED', 'REFUNDING', 'REFUNDED'));
ALTER TABLE payment_api.infraction_reports
    ADD COLUMN refund_centavos     bigint      CHECK (refund_centavos > 0),
    ADD COLUMN refund_requested_at timestamptz,
    ADD CONSTRAINT infraction_reports_refund_check
        CHECK ((status IN ('REFUNDING', 'REFUNDED')) = (refund_centavos IS NOT NULL AND refund_requested_at IS NOT NULL));
CREATE INDEX infraction_reports_refunding ON payment_api.infraction_reports (refund_requested_at)
    WHERE status = 'REFUNDING';

ALTER TABLE payment_api.infraction_trace
    ADD COLUMN refund_outcome text CHECK (refund_outcome IN ('RESERVED', 'HOLD_LAPSED', 'HOLD_RELEASED',
        'INSUFFICIENT_RESERVE', 'RETURN_EXCEEDS_RETURNABLE', 'PREVIOUSLY_FAILED', 'LEDGER_REFUSED'));
