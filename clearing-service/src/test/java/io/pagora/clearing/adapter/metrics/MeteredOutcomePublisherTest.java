package io.pagora.clearing.adapter.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pagora.events.PaymentExpired;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentSettled;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PaymentId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What an operator reads of the receiving banks from published outcomes: settled payments timed from acceptance,
 * expiries counted per receiving bank, and every published payment's chain no longer waiting for its bank.
 */
class MeteredOutcomePublisherTest {

    static final BankId PAYER_BANK = new BankId(10001111);
    static final BankId SILENT_BANK = new BankId(10002222);
    static final Instant NOW = Instant.parse("2026-11-27T12:00:00Z");

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    final PendingChains pending = new PendingChains(clock, Duration.ofSeconds(60), 100, registry);
    final List<PaymentOutcome> delegated = new ArrayList<>();
    final MeteredOutcomePublisher publisher =
            new MeteredOutcomePublisher((outcomes, payerOnly) -> delegated.addAll(outcomes), pending, clock, registry);

    @Test
    void expiriesAreCountedPerReceivingBankAndPublishedChainsNoLongerWait() {
        pending.reserved(List.of(
                new PendingChains.Chain(id(1), SILENT_BANK),
                new PendingChains.Chain(id(2), SILENT_BANK),
                new PendingChains.Chain(id(3), PAYER_BANK)));

        publisher.publish(List.of(expired(1, SILENT_BANK), expired(2, SILENT_BANK), settled(3, PAYER_BANK)));

        assertThat(delegated).hasSize(3);
        assertThat(registry.get(MeteredOutcomePublisher.EXPIRED)
                        .tag("bank", SILENT_BANK.toString())
                        .counter()
                        .count())
                .isEqualTo(2);
        assertThat(registry.find(MeteredOutcomePublisher.EXPIRED)
                        .tag("bank", PAYER_BANK.toString())
                        .counter())
                .as("no expiry at the bank that answered")
                .isNull();
        assertThat(registry.get(MeteredOutcomePublisher.ACCEPT_TO_SETTLED)
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(MeteredOutcomePublisher.ACCEPT_TO_SETTLED)
                        .timer()
                        .totalTime(java.util.concurrent.TimeUnit.MILLISECONDS))
                .isEqualTo(1500.0);
        assertThat(pending.awaiting(SILENT_BANK) + pending.awaiting(PAYER_BANK)).isZero();
    }

    private static PaymentExpired expired(long n, BankId payeeBank) {
        return new PaymentExpired(
                id(n).toString(),
                ChartOfAccounts.customer(PAYER_BANK, n).toString(),
                ChartOfAccounts.customer(payeeBank, n).toString(),
                10_00,
                NOW.minusSeconds(6),
                NOW);
    }

    private static PaymentSettled settled(long n, BankId payeeBank) {
        return new PaymentSettled(
                id(n).toString(),
                ChartOfAccounts.customer(PAYER_BANK, n).toString(),
                ChartOfAccounts.customer(payeeBank, n).toString(),
                10_00,
                NOW.minusMillis(1500),
                NOW);
    }

    private static PaymentId id(long n) {
        return new PaymentId(new Id128(1, n << 8));
    }
}
