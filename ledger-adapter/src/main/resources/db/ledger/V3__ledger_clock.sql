-- The ledger's clock: one row, the last timestamp it handed out. A batch that writes takes it last, after its
-- account locks, as GREATEST(last_timestamp + n, the wall clock) and keeps the row locked until it commits. So
-- every event gets a timestamp no other event has (two batches that read the wall clock in the same microsecond
-- once got the same ones, and an account walk paging "after the last timestamp" would skip one of each pair), and
-- timestamps follow commit order, as TigerBeetle's do: a cut at a timestamp sees every write before it.
CREATE TABLE clock (
    singleton      boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    last_timestamp bigint  NOT NULL CHECK (last_timestamp >= 0)
);

INSERT INTO clock (last_timestamp)
SELECT GREATEST(COALESCE((SELECT max("timestamp") FROM accounts), 0),
                COALESCE((SELECT max("timestamp") FROM transfers), 0));
