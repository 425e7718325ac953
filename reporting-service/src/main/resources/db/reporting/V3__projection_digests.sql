-- What each projection transaction inserted into payments (ProjectionDigest): rows, total amount and a
-- fingerprint of each row's id, parties and amount, written by that transaction. The reconciliation adds up the
-- rows it walks per inserting transaction (payments.projected_xid) and compares: a row written outside the
-- projection (planted, restored, lost) shows whatever the leg sample. One row per poll that inserted payments.
CREATE TABLE projection_digests (
    projected_xid    xid8    PRIMARY KEY,
    payments         integer NOT NULL CHECK (payments > 0),
    amount_centavos  bigint  NOT NULL CHECK (amount_centavos >= 0),
    fingerprint      bigint  NOT NULL
);

-- Rows inserted before this migration have no digest: the reconciliation compares only transactions from here on.
CREATE TABLE projection_digests_from (
    id             smallint PRIMARY KEY CHECK (id = 1),
    projected_xid  xid8     NOT NULL
);
INSERT INTO projection_digests_from (id, projected_xid) VALUES (1, pg_current_xact_id());
