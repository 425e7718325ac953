-- Idempotency keys are scoped by participant (issue 10): a key is unique per (participant, key), so two banks
-- that choose the same Idempotency-Key name two payments, and no bank can replay another's request or learn
-- that a key is in use by someone else. participant is the caller's principal name, as its client
-- certificate names it: 'ispb-' and 8 digits for a bank, 'operator' for the switch operator.
--
-- Rows written before this migration were claimed by callers nobody identified, and the table holds no
-- payer (only a fingerprint), so their owner cannot be recovered. They are KEPT (they still record which
-- payment each key named, for an audit) under the participant 'pre-identity', a name no certificate can
-- carry (Caller.ofPrincipalName refuses it): no caller can ever replay, collide with, or be refused by them.
-- Deleting them would serve no caller better and lose that record; giving them to a guessed bank would let
-- it replay a request it may not have made. The price, said plainly: a request sent before the upgrade and
-- retried after it under the same key is a new payment. Identity is introduced with a cutover (every
-- client needs its certificate first): clients finish retrying their outcome-unknown payments before it.
--
-- Not a rolling upgrade: the primary key is rebuilt under an exclusive lock on the intake's hottest table,
-- and an instance still running the previous code would fail every claim (its ON CONFLICT names the old key;
-- it fails closed: 503, nothing published). Stop every payment-api instance, then start the new version.
ALTER TABLE payment_api.idempotency_keys
    ADD COLUMN participant text NOT NULL DEFAULT 'pre-identity'
        CHECK (participant ~ '^(ispb-[0-9]{8}|operator|pre-identity)$');

-- New rows must name their participant: no default from now on.
ALTER TABLE payment_api.idempotency_keys ALTER COLUMN participant DROP DEFAULT;

ALTER TABLE payment_api.idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE payment_api.idempotency_keys ADD PRIMARY KEY (participant, idempotency_key);
