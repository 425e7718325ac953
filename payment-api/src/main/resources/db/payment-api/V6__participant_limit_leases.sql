-- What each payment-api instance holds of each participant's shared bucket, as it last said (docs/scale-out.md): a
-- bucket refills only up to its burst less what the live instances hold, so the tokens in the bucket and in the
-- instances' hands never exceed the burst together. An instance that leaves takes its rows with it.
CREATE TABLE participant_limit_leases (
    bucket       text   NOT NULL,
    participant  text   NOT NULL,
    instance_id  uuid   NOT NULL REFERENCES payment_api_instances (instance_id) ON DELETE CASCADE,
    held         bigint NOT NULL CHECK (held >= 0),
    PRIMARY KEY (bucket, participant, instance_id)
);
