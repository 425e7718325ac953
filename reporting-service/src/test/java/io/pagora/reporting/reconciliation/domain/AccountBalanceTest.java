package io.pagora.reporting.reconciliation.domain;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.reporting.reconciliation.domain.AccountBalance.Posted;
import io.pagora.settlement.domain.AccountKind;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which side of each kind of account only payments move, and the consistent cut: the read model may hold the
 * newest payments of its window beyond the ledger read, never other ones, never fewer.
 */
class AccountBalanceTest {

    private static Account account(long debitsPosted, long creditsPosted) {
        return new Account(Id128.of(7), 986, 1, 0, 0, debitsPosted, 0, creditsPosted, Id128.ZERO, 0, 0, 1);
    }

    @Test
    void aCustomersDebitsAreItsPaymentsExactlyAndItsCreditsAtLeastWhatItReceived() {
        PaymentFlows flows = new PaymentFlows(300, 500);

        assertThat(AccountBalance.judge(AccountKind.CUSTOMER, account(300, 900), flows, List.of()))
                .as("credits beyond the payments received are fundings")
                .isEqualTo(Verdict.AGREES);
        assertThat(AccountBalance.judge(AccountKind.CUSTOMER, account(301, 900), flows, List.of()))
                .isInstanceOf(Verdict.Disagrees.class);
        assertThat(AccountBalance.judge(AccountKind.CUSTOMER, account(299, 900), flows, List.of()))
                .isInstanceOf(Verdict.Disagrees.class);
        assertThat(AccountBalance.judge(AccountKind.CUSTOMER, account(300, 499), flows, List.of()))
                .isInstanceOf(Verdict.Disagrees.class);
    }

    @Test
    void aReserveIsJudgedLikeACustomerAndATransitTheOtherWayRound() {
        PaymentFlows interbank = new PaymentFlows(1_000, 2_000);

        assertThat(AccountBalance.judge(AccountKind.RESERVE, account(1_000, 9_000), interbank, List.of()))
                .isEqualTo(Verdict.AGREES);
        // Transit: leg 1 credits it (payments sent), leg 3 and customer fundings debit it.
        assertThat(AccountBalance.judge(AccountKind.TRANSIT, account(7_000, 1_000), interbank, List.of()))
                .isEqualTo(Verdict.AGREES);
        assertThat(AccountBalance.judge(AccountKind.TRANSIT, account(1_000, 7_000), interbank, List.of()))
                .isInstanceOf(Verdict.Disagrees.class);
    }

    /** The read model holds 100 + 200 + 400 beyond the ledger read: posted at 30, 20 and 10. */
    @Test
    void whilePaymentsFlowTheNewestOfTheWindowMayBeBeyondTheLedgerRead() {
        List<Posted> window =
                List.of(new Posted(10, 400, 0), new Posted(30, 100, 0), new Posted(20, 200, 0), new Posted(5, 800, 0));
        PaymentFlows readModel = new PaymentFlows(5_000, 0);

        assertThat(AccountBalance.judge(AccountKind.RESERVE, account(5_000, 0), readModel, window))
                .as("the read no later than every window payment")
                .isEqualTo(Verdict.AGREES);
        assertThat(AccountBalance.judge(AccountKind.RESERVE, account(4_900, 0), readModel, window))
                .as("the newest one after the read")
                .isEqualTo(Verdict.AGREES);
        assertThat(AccountBalance.judge(AccountKind.RESERVE, account(4_300, 0), readModel, window))
                .as("the three newest after it")
                .isEqualTo(Verdict.AGREES);
        assertThat(AccountBalance.judge(AccountKind.RESERVE, account(4_600, 0), readModel, window))
                .as("400 posted before 200 and 100: never the only one after the read")
                .isInstanceOf(Verdict.Disagrees.class);
        assertThat(AccountBalance.judge(AccountKind.RESERVE, account(4_899, 0), readModel, window))
                .as("one centavo off")
                .isInstanceOf(Verdict.Disagrees.class);
        assertThat(AccountBalance.judge(AccountKind.RESERVE, account(5_001, 0), readModel, window))
                .as("the ledger beyond a read model that holds every payment posted by the read")
                .isInstanceOf(Verdict.Disagrees.class);
    }

    @Test
    void theFundedSideMayLackWhatTheWindowBroughtIn() {
        List<Posted> window = List.of(new Posted(10, 0, 700));
        PaymentFlows readModel = new PaymentFlows(0, 1_000);

        assertThat(AccountBalance.judge(AccountKind.CUSTOMER, account(0, 300), readModel, window))
                .isEqualTo(Verdict.AGREES);
        assertThat(AccountBalance.judge(AccountKind.CUSTOMER, account(0, 299), readModel, window))
                .isInstanceOf(Verdict.Disagrees.class);
    }
}
