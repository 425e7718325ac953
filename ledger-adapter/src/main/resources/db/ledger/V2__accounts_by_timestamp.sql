-- query_accounts walks a ledger's account set in creation order, a page at a time (the online
-- reconciliation reads every account this way): one index range scan per page.
CREATE INDEX accounts_by_timestamp ON accounts ("timestamp");
