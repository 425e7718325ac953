-- One row per payment: its end-to-end id (or return id) becomes a column of its key's row, unique per participant
-- by an index of its own, instead of a second row keyed 'pix-id <id>'. A claim writes one row and one statement
-- instead of two; the id's uniqueness across days is kept as the key's is (V3: every partition is looked in, claims
-- of adjacent days are serialised by the day lock).
--
-- Not a rolling upgrade (as V2, V3): stop every payment-api instance, migrate, start the new version.

ALTER TABLE payment_api.idempotency_keys
    ADD COLUMN end_to_end_id text CHECK (length(end_to_end_id) = 32);

-- Each payment's id moves into its key's row: the 'pix-id ' row names the same participant and payment. A payment
-- named by two keys (a replay under another key) holds its id in the first key's row only.
UPDATE payment_api.idempotency_keys k
SET end_to_end_id = substr(p.idempotency_key, length('pix-id ') + 1)
FROM (SELECT DISTINCT ON (i.participant, i.idempotency_key)
             i.participant, i.idempotency_key, k2.idempotency_key AS owner_key, k2.claimed_on AS owner_day
      FROM payment_api.idempotency_keys i
      JOIN payment_api.idempotency_keys k2
        ON k2.participant = i.participant AND k2.payment_id = i.payment_id
       AND k2.idempotency_key NOT LIKE 'pix-id %' AND k2.idempotency_key NOT LIKE 'account-opening %'
      WHERE i.idempotency_key LIKE 'pix-id %'
      ORDER BY i.participant, i.idempotency_key, k2.accepted_at, k2.idempotency_key) AS p
WHERE k.participant = p.participant AND k.idempotency_key = p.owner_key AND k.claimed_on = p.owner_day;

DELETE FROM payment_api.idempotency_keys WHERE idempotency_key LIKE 'pix-id %';

CREATE UNIQUE INDEX idempotency_keys_end_to_end_id
    ON payment_api.idempotency_keys (participant, end_to_end_id, claimed_on);
