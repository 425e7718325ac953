-- Liquidity watermarks and where each bank's reserve stands against them (docs/operations.md, Liquidity alerts).
-- A row per bank that has watermarks. `sequence` counts the bank's crossings; every change of state is a
-- compare-and-set on it, so of several payment-api instances reading the same balance one records the crossing.
-- `told` is the last crossing delivered on the bank's stream: a crossing recorded but not yet told is sent again
-- (with the same message id) until the broker has it.
CREATE TABLE payment_api.liquidity_watch (
    ispb                    integer     PRIMARY KEY CHECK (ispb BETWEEN 0 AND 99999999),
    low_centavos            bigint      NOT NULL CHECK (low_centavos >= 1),
    high_centavos           bigint      NOT NULL CHECK (high_centavos > low_centavos),
    state                   text        NOT NULL CHECK (state IN ('ARMED', 'ALERTED')),
    since                   timestamptz NOT NULL,
    sequence                bigint      NOT NULL CHECK (sequence >= 0),
    told                    bigint      NOT NULL CHECK (told BETWEEN 0 AND sequence),
    crossing                text        CHECK (crossing IN ('FELL_BELOW_LOW', 'RECOVERED_ABOVE_HIGH', 'CLEARED_BY_FUNDING')),
    crossed_available       bigint,
    crossed_low             bigint,
    crossed_high            bigint,
    CHECK ((sequence = 0) = (crossing IS NULL))
);
