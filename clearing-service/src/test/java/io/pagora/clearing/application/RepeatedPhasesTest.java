package io.pagora.clearing.application;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.testsupport.Books;
import io.pagora.clearing.testsupport.PixWorld;
import io.pagora.events.PaymentRequested;
import io.pagora.events.PaymentSettled;
import io.pagora.kernel.Id128;
import io.pagora.ledger.adapter.postgres.PostgresLedger;
import io.pagora.ledger.port.TransferResult;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.SettlementPlan;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.VoidCause;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestPostgres;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves, on the real PostgreSQL ledger, the property every redelivery in clearing relies on: each
 * phase of an interbank payment can run again and reports the same outcome without moving money twice
 * — even though the ledger answers a re-sent 3-leg chain {@code [EXISTS, LINKED_EVENT_FAILED,
 * LINKED_EVENT_FAILED]} (TigerBeetle semantics: {@code exists} breaks a linked chain) — and a void
 * after the post answers the ledger's earlier resolution.
 */
@ServerBacked
class RepeatedPhasesTest {

    @Test
    void everyPhaseOfAnInterbankPaymentCanBeRepeated() {
        try (TestPostgres.Database database = TestPostgres.freshDatabase()) {
            PostgresLedger ledger = PostgresLedger.migrateAndOpen(database.dataSource());
            PixWorld world = new PixWorld(ledger);
            world.fundReserve(PixWorld.BANK_A, 1_000_00);
            Id128 payer = world.openCustomers(PixWorld.BANK_A, 1, 1, 100_00).getFirst();
            Id128 payee = world.openCustomers(PixWorld.BANK_B, 1, 1, 0).getFirst();
            Payment payment = new Payment(new TimeOrderedIds().nextPaymentId(), payer, payee, 10_00);
            Settlement settlement = new Settlement(ledger, 60);

            assertThat(settlement.reserve(List.of(payment))).containsExactly(new ReservationOutcome.Reserved(false));
            assertThat(ledger.createTransfers(SettlementPlan.of(payment).pendingChain(60)))
                    .as("a re-sent chain")
                    .containsExactly(
                            TransferResult.EXISTS,
                            TransferResult.LINKED_EVENT_FAILED,
                            TransferResult.LINKED_EVENT_FAILED);
            assertThat(settlement.reserve(List.of(payment)))
                    .as("reserved by the earlier attempt")
                    .containsExactly(new ReservationOutcome.Reserved(true));
            assertThat(settlement.post(List.of(payment))).containsExactly(new ResolutionOutcome.Posted());
            assertThat(settlement.post(List.of(payment))).containsExactly(new ResolutionOutcome.Posted());
            assertThat(settlement.reserve(List.of(payment))).containsExactly(new ReservationOutcome.Reserved(true));
            assertThat(settlement.voidAll(List.of(payment), VoidCause.RECEIVING_BANK_REFUSED))
                    .as("the earlier post wins")
                    .containsExactly(new ResolutionOutcome.Posted());
            assertThat(ledger.lookupAccounts(List.of(payer)).getFirst().creditBalancePosted())
                    .isEqualTo(90_00);

            // The books: the payment moved its money exactly once, nothing is left pending.
            PaymentRequested requested = new PaymentRequested(
                    payment.id().toString(),
                    payer.toString(),
                    payee.toString(),
                    10_00,
                    "BRL",
                    "repeated",
                    "E2E",
                    Instant.now());
            PaymentSettled settled = new PaymentSettled(
                    requested.paymentId(),
                    requested.payerAccountId(),
                    requested.payeeAccountId(),
                    10_00,
                    requested.acceptedAt(),
                    Instant.now());
            Books.check(world, List.of(requested), List.of(settled));
        }
    }
}
