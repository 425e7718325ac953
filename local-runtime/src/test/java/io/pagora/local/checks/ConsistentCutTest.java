package io.pagora.local.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.TimeOrderedIds;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where one ledger read stands among the read model's settled payments. */
class ConsistentCutTest {

    private static final BankId A = new BankId(1);
    private static final BankId B = new BankId(2);
    private static final Id128 ALICE = ChartOfAccounts.customer(A, 1);
    private static final Id128 ANNA = ChartOfAccounts.customer(A, 2);
    private static final Id128 BRUNO = ChartOfAccounts.customer(B, 1);

    private final TimeOrderedIds ids = new TimeOrderedIds();

    @Test
    void fundingsDoNotCountAndEveryPaymentDoes() {
        // A customer funding (transit → customer) and a reserve funding (central bank → reserve) move nothing counted.
        List<Account> fundedOnly = List.of(
                account(ALICE, 0, 5_000),
                account(ChartOfAccounts.transit(A), 5_000, 0),
                account(ChartOfAccounts.reserve(A), 0, 9_000),
                account(ChartOfAccounts.centralBank(), 9_000, 0));
        assertThat(ConsistentCut.paymentOnlySum(fundedOnly)).isZero();
        assertThat(ConsistentCut.contribution(payment(ALICE, BRUNO, 100)))
                .as("interbank: three legs")
                .isEqualTo(300);
        assertThat(ConsistentCut.contribution(payment(ALICE, ANNA, 100)))
                .as("on-us: one leg")
                .isEqualTo(100);
    }

    @Test
    void theReadStandsAfterExactlyThePaymentsItsSumHoldsInPostingOrder() {
        ConsistentCut.Settled first = settled(payment(ALICE, BRUNO, 100), 10);
        ConsistentCut.Settled second = settled(payment(ALICE, ANNA, 50), 20);
        ConsistentCut.Settled third = settled(payment(BRUNO, ALICE, 70), 30);
        // The ledger read holds the first two: ALICE paid 150, bank A's reserve 100, bank A's transit received 100.
        List<Account> read = List.of(
                account(ALICE, 150, 10_000),
                account(ChartOfAccounts.reserve(A), 100, 0),
                account(ChartOfAccounts.transit(A), 0, 100));

        ConsistentCut.Cut cut = ConsistentCut.find(read, List.of(third, first, second));

        assertThat(cut.exact()).isTrue();
        assertThat(cut.timestamp()).isEqualTo(20);
        assertThat(cut.judged()).isEqualTo(2);
        assertThat(cut.settledAfter()).containsExactly(third.paymentId());
    }

    @Test
    void aLegNoSettledPaymentExplainsLeavesNoExactCut() {
        ConsistentCut.Settled first = settled(payment(ALICE, BRUNO, 100), 10);
        // 7 centavos more left bank A's reserve than the read model's payments say.
        List<Account> read = List.of(
                account(ALICE, 100, 10_000),
                account(ChartOfAccounts.reserve(A), 107, 0),
                account(ChartOfAccounts.transit(A), 0, 100));

        ConsistentCut.Cut cut = ConsistentCut.find(read, List.of(first));

        assertThat(cut.exact()).isFalse();
        assertThat(cut.unexplained()).isEqualTo(7);
        assertThat(cut.judged()).isEqualTo(1);
    }

    private Payment payment(Id128 payer, Id128 payee, long amount) {
        return new Payment(ids.nextPaymentId(), payer, payee, amount);
    }

    private static ConsistentCut.Settled settled(Payment payment, long postedAt) {
        return new ConsistentCut.Settled(payment.id().value().toUuid(), payment, postedAt);
    }

    private static Account account(Id128 id, long debitsPosted, long creditsPosted) {
        return new Account(
                id, ChartOfAccounts.LEDGER_BRL, 0, 0, 0, debitsPosted, 0, creditsPosted, Id128.ZERO, 0, 0, 1);
    }
}
