-- Returns (devoluções, issue 21): a return is a payment of its own, from the original's payee back to its payer,
-- linked to the payment it returns (return_of) with its PIX reason. Every event of a return carries the link, so it is
-- written with the row, whichever event is projected first.
--
-- Adding nullable columns without a default changes no existing row (catalog only). The constraints are NOT VALID:
-- every row written from now on is checked; the rows before have no link, which satisfies them, and are not scanned.
ALTER TABLE payments
    ADD COLUMN return_of uuid,
    ADD COLUMN return_reason text;
ALTER TABLE payments ADD CONSTRAINT return_link_complete
    CHECK ((return_of IS NULL) = (return_reason IS NULL)) NOT VALID;
ALTER TABLE payments ADD CONSTRAINT return_reason_known
    CHECK (return_reason IS NULL OR return_reason IN ('BE08', 'FR01', 'MD06', 'SL02')) NOT VALID;

-- A payment's returns (GET /payments/{id}: its returns and the amount left to return). Partial: only returns have an
-- entry. The finalize stays a heap-only update (V4): it changes no column of this index.
CREATE INDEX payments_returns_of ON payments (return_of) WHERE return_of IS NOT NULL;

-- Of the final payments payment_stats counts, the returns: what a load generator's own payments are is then the
-- rest (the bench's backlog: accepted by it − final, returns apart). A constant default on a one-row table.
ALTER TABLE payment_stats ADD COLUMN returns_final_count bigint NOT NULL DEFAULT 0 CHECK (returns_final_count >= 0);
