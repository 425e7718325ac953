package io.pagora.reporting.reconciliation.adapter;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountFlags;
import io.pagora.ledger.port.Ledger;
import io.pagora.reporting.reconciliation.application.ReconciliationSettings;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.time.Duration;
import java.util.List;

/** The reconciliation settings the tests drive rounds with, and the ledger's money invariants: one copy. */
final class ReconciliationFixtures {

    /** How long a balance check waits in a round for the projection: the tests' projection keeps up within it. */
    static final Duration PIPELINE_WAIT = Duration.ofSeconds(2);

    private ReconciliationFixtures() {}

    /**
     * Rounds that look back an hour, check balances at every round (waiting up to {@link #PIPELINE_WAIT} in a round
     * for the projection to hold the ledger read) and report a disagreement at its second sight.
     *
     * @param legSamplePerMille payments per thousand whose legs are looked up in the ledger
     */
    static ReconciliationSettings settings(Duration finalWithin, int legSamplePerMille) {
        return settings(finalWithin, Duration.ofHours(1), legSamplePerMille);
    }

    /** As above, starting with the payments accepted {@code startLookback} ago. */
    static ReconciliationSettings settings(Duration finalWithin, Duration startLookback, int legSamplePerMille) {
        return settings(finalWithin, startLookback, legSamplePerMille, 1_020, 1_000);
    }

    /** As above, with ledger lookups of at most {@code legLookupIdsMax} ids, {@code ledgerRequestsPerSecondMax} a second. */
    static ReconciliationSettings settings(
            Duration finalWithin,
            Duration startLookback,
            int legSamplePerMille,
            int legLookupIdsMax,
            int ledgerRequestsPerSecondMax) {
        return new ReconciliationSettings(
                finalWithin,
                startLookback,
                20_000,
                legSamplePerMille,
                legLookupIdsMax,
                ledgerRequestsPerSecondMax,
                2_000,
                Duration.ZERO,
                PIPELINE_WAIT,
                100_000,
                50);
    }

    /**
     * The ledger's money invariants over every account it holds: Σdebits = Σcredits (posted and pending), and no
     * account whose debits must not exceed its credits below zero.
     */
    static void assertLedgerInvariants(Ledger ledger) {
        List<Account> accounts = ledger.queryAccounts(ChartOfAccounts.LEDGER_BRL, 0, Ledger.BATCH_SIZE_MAX);
        assertThat(accounts).hasSizeLessThan(Ledger.BATCH_SIZE_MAX).isNotEmpty();
        assertThat(accounts.stream().mapToLong(Account::debitsPosted).sum())
                .isEqualTo(accounts.stream().mapToLong(Account::creditsPosted).sum());
        assertThat(accounts.stream().mapToLong(Account::debitsPending).sum())
                .isEqualTo(accounts.stream().mapToLong(Account::creditsPending).sum());
        assertThat(accounts)
                .filteredOn(a -> a.hasFlag(AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS))
                .allSatisfy(a -> assertThat(a.creditBalanceAvailable()).isNotNegative());
    }
}
