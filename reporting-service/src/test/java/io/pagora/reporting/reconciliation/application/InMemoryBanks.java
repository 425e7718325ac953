package io.pagora.reporting.reconciliation.application;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.PaymentRow;
import io.pagora.settlement.application.Participants;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.testing.ledger.ReferenceLedger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** An in-memory ledger (the reference ledger) with funded banks and customers, and payments settled in it. */
final class InMemoryBanks {

    /** Every payment's legs looked up, no wait for the pipeline, a balance check every round. */
    static final ReconciliationSettings SETTINGS = new ReconciliationSettings(
            Duration.ofSeconds(60),
            Duration.ofHours(1),
            20_000,
            1_000,
            1_020,
            10_000,
            2_000,
            Duration.ZERO,
            Duration.ZERO,
            100_000,
            50);

    final ReferenceLedger ledger = ReferenceLedger.onWallClock();
    final TimeOrderedIds ids = new TimeOrderedIds();
    private final Participants participants = new Participants(ledger);

    InMemoryBanks() {
        participants.openCentralBank();
    }

    /** A bank with a funded reserve and {@code count} funded customers, numbered from 1. */
    List<Id128> openBank(BankId bank, int count) {
        participants.registerBank(bank);
        participants.fundReserve(ids.next(), bank, 50_000_000);
        List<Long> numbers = new ArrayList<>();
        List<Id128> opened = new ArrayList<>();
        for (long number = 1; number <= count; number++) {
            numbers.add(number);
            opened.add(ChartOfAccounts.customer(bank, number));
        }
        participants.openCustomers(bank, numbers);
        opened.forEach(customer -> participants.fundCustomer(ids.next(), customer, 1_000_000));
        return opened;
    }

    Payment payment(Id128 payer, Id128 payee, long amountCentavos) {
        return new Payment(ids.nextPaymentId(), payer, payee, amountCentavos);
    }

    /** Reserves and posts the payment's legs in the ledger, as clearing does. */
    void settle(Payment payment) {
        Settlement settlement = new Settlement(ledger, 60);
        assertThat(settlement.reserve(List.of(payment))).allMatch(ReservationOutcome.Reserved.class::isInstance);
        assertThat(settlement.post(List.of(payment))).allMatch(ResolutionOutcome.Posted.class::isInstance);
    }

    static PaymentRow row(Payment payment, PaymentStatus status) {
        return new PaymentRow(payment.id().value(), payment.payer(), payment.payee(), payment.amountCentavos(), status);
    }
}
