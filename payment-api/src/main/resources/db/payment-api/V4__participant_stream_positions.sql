-- How far each participant has acknowledged the messages of its stream (docs/participants.md): the position in
-- the Kafka partition holding its messages. Positions only move forward; a restart redelivers from here.
CREATE TABLE participant_stream_positions (
    ispb        integer     NOT NULL,
    partition   integer     NOT NULL,
    position    bigint      NOT NULL CHECK (position >= 0),
    updated_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (ispb, partition)
);
