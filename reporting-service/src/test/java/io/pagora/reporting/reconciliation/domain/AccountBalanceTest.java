package io.pagora.reporting.reconciliation.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.ledger.domain.Account;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.AccountKind;
import org.junit.jupiter.api.Test;

/** Which side of each kind of account only payments move, and what an account that moved while read gives. */
class AccountBalanceTest {

    private static Account account(long debitsPosted, long creditsPosted) {
        return new Account(Id128.of(7), 986, 1, 0, 0, debitsPosted, 0, creditsPosted, Id128.ZERO, 0, 0, 1);
    }

    @Test
    void aCustomersDebitsAreItsPaymentsExactlyAndItsCreditsAtLeastWhatItReceived() {
        PaymentFlows flows = new PaymentFlows(300, 500);

        assertThat(AccountBalance.judge(AccountKind.CUSTOMER, account(300, 900), account(300, 900), flows))
                .as("credits beyond the payments received are fundings").isEqualTo(Verdict.AGREES);
        assertThat(AccountBalance.judge(AccountKind.CUSTOMER, account(301, 900), account(301, 900), flows))
                .isInstanceOf(Verdict.Disagrees.class);
        assertThat(AccountBalance.judge(AccountKind.CUSTOMER, account(300, 499), account(300, 499), flows))
                .isInstanceOf(Verdict.Disagrees.class);
    }

    @Test
    void aReserveIsJudgedLikeACustomerAndATransitTheOtherWayRound() {
        PaymentFlows interbank = new PaymentFlows(1_000, 2_000);

        assertThat(AccountBalance.judge(AccountKind.RESERVE, account(1_000, 9_000), account(1_000, 9_000), interbank))
                .isEqualTo(Verdict.AGREES);
        // Transit: leg 1 credits it (payments sent), leg 3 and customer fundings debit it.
        assertThat(AccountBalance.judge(AccountKind.TRANSIT, account(7_000, 1_000), account(7_000, 1_000), interbank))
                .isEqualTo(Verdict.AGREES);
        assertThat(AccountBalance.judge(AccountKind.TRANSIT, account(1_000, 7_000), account(1_000, 7_000), interbank))
                .isInstanceOf(Verdict.Disagrees.class);
    }

    @Test
    void anAccountThatMovedBetweenTheTwoLedgerReadsIsDeferredNotJudged() {
        Verdict verdict = AccountBalance.judge(AccountKind.CUSTOMER, account(300, 900), account(400, 900),
                new PaymentFlows(0, 0));

        assertThat(verdict).isInstanceOf(Verdict.Deferred.class);
    }
}
