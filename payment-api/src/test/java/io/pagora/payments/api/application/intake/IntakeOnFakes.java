package io.pagora.payments.api.application.intake;

import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.intake.PaymentPublisher.Publication;
import io.pagora.payments.api.application.limits.ParticipantTokenBuckets;
import io.pagora.payments.api.application.limits.UnknownAccountLimit;
import io.pagora.payments.api.domain.PaymentRules;
import io.pagora.settlement.application.AccessRefusals;
import io.pagora.settlement.application.Participants;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.testing.ledger.ReferenceLedger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link PaymentIntake} on in-memory fakes: the reference ledger with two banks and one customer each, the
 * idempotency store kept for {@code retentionDays} on a test clock, and a publisher that acknowledges every event
 * and records it.
 */
final class IntakeOnFakes {

    static final BankId PAYER_BANK = new BankId(31);
    static final BankId PAYEE_BANK = new BankId(32);

    final MutableClock clock;
    final InMemoryIdempotencyKeys keys;
    final List<PaymentRequested> published = new ArrayList<>();
    final PaymentIntake intake;
    final Id128 payer = ChartOfAccounts.customer(PAYER_BANK, 1);
    final Id128 payee = ChartOfAccounts.customer(PAYEE_BANK, 1);

    IntakeOnFakes(Instant now, int retentionDays) {
        clock = new MutableClock(now);
        keys = new InMemoryIdempotencyKeys(clock, retentionDays);
        ReferenceLedger ledger = ReferenceLedger.onWallClock();
        Participants participants = new Participants(ledger);
        participants.openCentralBank();
        participants.registerBank(PAYER_BANK);
        participants.registerBank(PAYEE_BANK);
        participants.openCustomers(PAYER_BANK, List.of(1L));
        participants.openCustomers(PAYEE_BANK, List.of(1L));
        PaymentPublisher publisher = events -> {
            published.addAll(events);
            return events.stream()
                    .map(event -> (Publication) new Publication.Acked())
                    .toList();
        };
        intake = new PaymentIntake(
                new PaymentRules(1_000_000_00L, retentionDays),
                new AccountDirectory(ledger, 1_000),
                keys,
                publisher,
                new TimeOrderedIds(clock),
                clock,
                new Admission(() -> 0, 1_000_000, 1_000),
                AccessRefusals.UNCOUNTED,
                new UnknownAccountLimit(new ParticipantTokenBuckets(1_000, 1_000, 16, System::nanoTime)),
                PayeeKeys.NONE);
    }
}
