-- get_account_transfers follows one account's transfers in creation order, a page at a time (the fraud trace of
-- docs/med.md follows money out of an account this way): one index range scan per side and page.
CREATE INDEX transfers_by_debit_account  ON transfers (debit_account_id, "timestamp");
CREATE INDEX transfers_by_credit_account ON transfers (credit_account_id, "timestamp");
