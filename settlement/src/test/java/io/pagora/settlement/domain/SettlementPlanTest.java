package io.pagora.settlement.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.TransferFlags;
import io.pagora.ledger.port.TransferResult;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Specifies the PIX settlement plan, the account id scheme and the deterministic id derivation. */
class SettlementPlanTest {

    private static final BankId ITAU = new BankId(60_701_190);
    private static final BankId NUBANK = new BankId(18_236_120);
    private static final Id128 ALICE = ChartOfAccounts.customer(ITAU, 1);
    private static final Id128 BOB = ChartOfAccounts.customer(NUBANK, 7);
    private static final Id128 CAROL = ChartOfAccounts.customer(ITAU, 2);

    private final TimeOrderedIds ids = new TimeOrderedIds();

    @Test
    void interbankPaymentIsThreeLinkedPendingLegsThroughTransitAndReserves() {
        Payment payment = new Payment(ids.nextPaymentId(), ALICE, BOB, 12_345);
        List<NewTransfer> chain = SettlementPlan.of(payment).pendingChain(30);

        assertThat(chain)
                .extracting(NewTransfer::debitAccountId)
                .containsExactly(ALICE, ChartOfAccounts.reserve(ITAU), ChartOfAccounts.transit(NUBANK));
        assertThat(chain)
                .extracting(NewTransfer::creditAccountId)
                .containsExactly(ChartOfAccounts.transit(ITAU), ChartOfAccounts.reserve(NUBANK), BOB);
        assertThat(chain).allSatisfy(leg -> {
            assertThat(leg.hasFlag(TransferFlags.PENDING)).isTrue();
            assertThat(leg.amount()).isEqualTo(12_345);
            assertThat(leg.timeoutSeconds()).isEqualTo(30);
            assertThat(leg.userData128()).isEqualTo(payment.id().value());
            assertThat(leg.ledger()).isEqualTo(ChartOfAccounts.LEDGER_BRL);
        });
        assertThat(chain).extracting(leg -> leg.hasFlag(TransferFlags.LINKED)).containsExactly(true, true, false);
    }

    @Test
    void onUsPaymentIsOneLegFromPayerToPayee() {
        Payment payment = new Payment(ids.nextPaymentId(), ALICE, CAROL, 500);
        List<NewTransfer> chain = SettlementPlan.of(payment).pendingChain(30);
        assertThat(chain).singleElement().satisfies(leg -> {
            assertThat(leg.debitAccountId()).isEqualTo(ALICE);
            assertThat(leg.creditAccountId()).isEqualTo(CAROL);
            assertThat(leg.code()).isEqualTo(TransferCode.ON_US);
            assertThat(leg.hasFlag(TransferFlags.LINKED)).isFalse();
        });
    }

    @Test
    void everyTransferIdIsDerivedFromThePaymentIdAndDistinct() {
        Payment payment = new Payment(ids.nextPaymentId(), ALICE, BOB, 1);
        SettlementPlan plan = SettlementPlan.of(payment);
        Set<Id128> all = new HashSet<>();
        for (List<NewTransfer> chain :
                List.of(plan.pendingChain(5), plan.postChain(), plan.voidChain(VoidCause.UNANSWERED))) {
            chain.forEach(transfer -> {
                all.add(transfer.id());
                assertThat(LegId.paymentOf(transfer.id())).isEqualTo(payment.id());
            });
        }
        assertThat(all).hasSize(9).doesNotContain(payment.id().value());
        // A retry derives exactly the same ids: nothing random after the payment id.
        assertThat(SettlementPlan.of(payment).pendingChain(5)).isEqualTo(plan.pendingChain(5));
        assertThat(plan.postChain())
                .extracting(NewTransfer::pendingId)
                .containsExactlyElementsOf(
                        plan.pendingChain(5).stream().map(NewTransfer::id).toList());
        assertThat(LegId.of(payment.id(), LegId.Phase.POST, 2).lo() & 0xFF).isEqualTo(0x22);
    }

    @Test
    void paymentIdsAreTimeOrderedAndStrictlyAscendingWithinOneMillisecond() {
        Clock frozen = Clock.fixed(Instant.parse("2026-11-21T12:00:00Z"), ZoneOffset.UTC);
        TimeOrderedIds generator = new TimeOrderedIds(frozen);
        PaymentId previous = generator.nextPaymentId();
        for (int i = 0; i < 10_000; i++) {
            PaymentId next = generator.nextPaymentId();
            assertThat(next).isGreaterThan(previous);
            assertThat(next.epochMillis()).isEqualTo(frozen.millis());
            previous = next;
        }
    }

    @Test
    void accountIdsTellTheirKindAndBank() {
        assertThat(ChartOfAccounts.bankOf(BOB)).contains(NUBANK);
        assertThat(ChartOfAccounts.kindOf(BOB)).contains(AccountKind.CUSTOMER);
        assertThat(ChartOfAccounts.kindOf(ChartOfAccounts.reserve(ITAU))).contains(AccountKind.RESERVE);
        assertThat(ChartOfAccounts.bankOf(ChartOfAccounts.centralBank())).isEmpty();
        assertThat(ChartOfAccounts.isCustomer(ChartOfAccounts.transit(ITAU))).isFalse();
        assertThat(ChartOfAccounts.isCustomer(Id128.of(42))).isFalse();
    }

    @Test
    void aPaymentRefusesNonsenseBeforeAnyLedgerCall() {
        PaymentId id = ids.nextPaymentId();
        assertThatThrownBy(() -> new Payment(id, ALICE, ALICE, 1)).hasMessageContaining("differ");
        assertThatThrownBy(() -> new Payment(id, ALICE, BOB, 0)).hasMessageContaining("positive");
        assertThatThrownBy(() -> new Payment(id, ChartOfAccounts.reserve(ITAU), BOB, 1))
                .hasMessageContaining("customer");
    }

    private static final SettlementPlan INTERBANK =
            SettlementPlan.of(new Payment(new TimeOrderedIds().nextPaymentId(), ALICE, BOB, 1));

    @Test
    void chainOutcomesAreClassifiedByTheirRootCause() {
        assertThat(ReservationOutcome.classify(
                        INTERBANK, List.of(TransferResult.OK, TransferResult.OK, TransferResult.OK)))
                .isInstanceOf(ReservationOutcome.Reserved.class);
        // TigerBeetle breaks a linked chain on `exists` too: a retried committed chain answers this.
        assertThat(ReservationOutcome.classify(
                        INTERBANK,
                        List.of(
                                TransferResult.EXISTS,
                                TransferResult.LINKED_EVENT_FAILED,
                                TransferResult.LINKED_EVENT_FAILED)))
                .isInstanceOf(ReservationOutcome.Reserved.class);
        assertThat(ResolutionOutcome.classify(
                        List.of(
                                TransferResult.EXISTS,
                                TransferResult.LINKED_EVENT_FAILED,
                                TransferResult.LINKED_EVENT_FAILED),
                        null))
                .isInstanceOf(ResolutionOutcome.Posted.class);
        assertThat(ReservationOutcome.classify(
                        INTERBANK,
                        List.of(
                                TransferResult.LINKED_EVENT_FAILED,
                                TransferResult.EXISTS,
                                TransferResult.LINKED_EVENT_FAILED)))
                .isEqualTo(new ReservationOutcome.IntegrityAlarm(2, TransferResult.EXISTS));
        assertThat(ReservationOutcome.classify(
                        INTERBANK,
                        List.of(
                                TransferResult.EXCEEDS_CREDITS,
                                TransferResult.LINKED_EVENT_FAILED,
                                TransferResult.LINKED_EVENT_FAILED)))
                .isEqualTo(new ReservationOutcome.Refused(
                        ReservationOutcome.RefusalReason.INSUFFICIENT_FUNDS, 1, TransferResult.EXCEEDS_CREDITS));
        assertThat(ReservationOutcome.classify(
                        INTERBANK,
                        List.of(
                                TransferResult.LINKED_EVENT_FAILED,
                                TransferResult.EXCEEDS_CREDITS,
                                TransferResult.LINKED_EVENT_FAILED)))
                .isEqualTo(new ReservationOutcome.Refused(
                        ReservationOutcome.RefusalReason.INSUFFICIENT_RESERVE, 2, TransferResult.EXCEEDS_CREDITS));
        assertThat(ReservationOutcome.classify(
                        INTERBANK,
                        List.of(
                                TransferResult.EXISTS_WITH_DIFFERENT_AMOUNT,
                                TransferResult.LINKED_EVENT_FAILED,
                                TransferResult.LINKED_EVENT_FAILED)))
                .isEqualTo(new ReservationOutcome.IntegrityAlarm(1, TransferResult.EXISTS_WITH_DIFFERENT_AMOUNT));
        assertThat(ResolutionOutcome.classify(
                        List.of(
                                TransferResult.PENDING_TRANSFER_EXPIRED,
                                TransferResult.LINKED_EVENT_FAILED,
                                TransferResult.LINKED_EVENT_FAILED),
                        null))
                .isInstanceOf(ResolutionOutcome.Expired.class);
        // After a redelivery, the ledger's earlier resolution wins: no second movement. An answer that
        // does not carry the void's cause is an alarm here, which Settlement resolves from the ledger.
        assertThat(ResolutionOutcome.classify(
                        List.of(
                                TransferResult.PENDING_TRANSFER_ALREADY_VOIDED,
                                TransferResult.LINKED_EVENT_FAILED,
                                TransferResult.LINKED_EVENT_FAILED),
                        null))
                .isInstanceOf(ResolutionOutcome.IntegrityAlarm.class);
        assertThat(ResolutionOutcome.classify(
                        List.of(TransferResult.OK, TransferResult.OK, TransferResult.OK), VoidCause.UNANSWERED))
                .isEqualTo(new ResolutionOutcome.Voided(VoidCause.UNANSWERED));
        assertThat(ResolutionOutcome.classify(
                        List.of(
                                TransferResult.PENDING_TRANSFER_ALREADY_POSTED,
                                TransferResult.LINKED_EVENT_FAILED,
                                TransferResult.LINKED_EVENT_FAILED),
                        VoidCause.RECEIVING_BANK_REFUSED))
                .isInstanceOf(ResolutionOutcome.Posted.class);
        assertThat(ResolutionOutcome.classify(
                        List.of(
                                TransferResult.PENDING_TRANSFER_NOT_FOUND,
                                TransferResult.LINKED_EVENT_FAILED,
                                TransferResult.LINKED_EVENT_FAILED),
                        null))
                .isInstanceOf(ResolutionOutcome.IntegrityAlarm.class);
    }
}
