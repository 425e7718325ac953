-- Per-participant limits that hold for the whole switch, however many payment-api instances serve it (docs/scale-out.md):
-- a token bucket per (limit, participant), refilled on PostgreSQL's clock, from which each instance leases tokens in
-- batches; never deleted, so a restart forgives no debt. Tokens may go below zero: a debt paid back by the refill.
CREATE TABLE participant_limit_buckets (
    bucket       text             NOT NULL,
    participant  text             NOT NULL,
    tokens       double precision NOT NULL,
    refilled_at  timestamptz      NOT NULL,
    PRIMARY KEY (bucket, participant)
);

-- The payment-api instances alive (a heartbeat each second): each takes its share of a participant's burst and
-- requests in flight, and of the limit while this table is out of reach.
CREATE TABLE payment_api_instances (
    instance_id  uuid        PRIMARY KEY,
    seen_at      timestamptz NOT NULL
);
