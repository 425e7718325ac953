-- The reconciliation's lease (ExpiringLease): one row per purpose, held by the instance named in holder until
-- expires_at (the database's clock, the only one the instances share), renewed by it every interval, taken over by any
-- other once expired. Every takeover raises generation: a holder that renews with its old generation finds no row and
-- knows it lost, whatever it missed while frozen.
CREATE TABLE reconciliation_lease (
    name text PRIMARY KEY,
    holder text NOT NULL,
    generation bigint NOT NULL CHECK (generation > 0),
    expires_at timestamptz NOT NULL
);
