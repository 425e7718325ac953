package io.pagora.clearing.adapter.bank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.clearing.domain.BankAnswer;
import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.TimeOrderedIds;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Proves the simulated receiving bank is deterministic per payment id (a redelivery after a crash
 * gets the same answer, from any instance), answers one per payment in order, and follows its
 * configured rates.
 */
class SimulatedReceivingBankTest {

    private static final Id128 PAYER = ChartOfAccounts.customer(new BankId(1), 1);
    private static final Id128 PAYEE = ChartOfAccounts.customer(new BankId(2), 1);

    @Test
    void theAnswerForAPaymentIsAFunctionOfItsIdAlone() {
        TimeOrderedIds ids = new TimeOrderedIds();
        List<Payment> payments = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            payments.add(new Payment(ids.nextPaymentId(), PAYER, PAYEE, 100));
        }
        List<BankAnswer> first = new SimulatedReceivingBank(0.7, 0.1, Duration.ZERO).decide(payments);
        List<BankAnswer> again = new SimulatedReceivingBank(0.7, 0.1, Duration.ZERO).decide(payments.reversed());
        assertThat(again.reversed())
                .as("same answers from another instance, in any order")
                .isEqualTo(first);
        assertThat(first).hasSameSizeAs(payments);
    }

    @Test
    void answersFollowTheConfiguredRates() {
        TimeOrderedIds ids = new TimeOrderedIds();
        List<Payment> payments = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            payments.add(new Payment(ids.nextPaymentId(), PAYER, PAYEE, 100));
        }
        Map<Class<?>, Long> counts = new SimulatedReceivingBank(0.7, 0.1, Duration.ZERO)
                .decide(payments).stream().collect(Collectors.groupingBy(Object::getClass, Collectors.counting()));
        // Consecutive ids differ in a few bits only: the hash must still spread them.
        assertThat(counts.get(BankAnswer.Accepted.class) / 20_000.0).isBetween(0.68, 0.72);
        assertThat(counts.get(BankAnswer.NoAnswer.class) / 20_000.0).isBetween(0.09, 0.11);
        assertThat(counts.get(BankAnswer.Refused.class) / 20_000.0).isBetween(0.19, 0.21);
    }

    @Test
    void extremeRatesAreExact() {
        PaymentId id = new TimeOrderedIds().nextPaymentId();
        Function<SimulatedReceivingBank, BankAnswer> ask = bank -> bank.answer(id);
        assertThat(ask.apply(new SimulatedReceivingBank(1, 0, Duration.ZERO))).isInstanceOf(BankAnswer.Accepted.class);
        assertThat(ask.apply(new SimulatedReceivingBank(0, 1, Duration.ZERO))).isInstanceOf(BankAnswer.NoAnswer.class);
        assertThat(ask.apply(new SimulatedReceivingBank(0, 0, Duration.ZERO))).isInstanceOf(BankAnswer.Refused.class);
    }

    @Test
    void invalidRatesAreRefusedAtStartup() {
        assertThatThrownBy(() -> new SimulatedReceivingBank(0.9, 0.2, Duration.ZERO))
                .isInstanceOf(Check.InvariantViolation.class);
        assertThatThrownBy(() -> new SimulatedReceivingBank(-0.1, 0, Duration.ZERO))
                .isInstanceOf(Check.InvariantViolation.class);
        assertThatThrownBy(() -> new SimulatedReceivingBank(1, 0, Duration.ofMinutes(1)))
                .isInstanceOf(Check.InvariantViolation.class);
    }
}
