package io.pagora.payments.api.application.directory;

import io.pagora.events.PaymentRequested;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.directory.lookup.LookingUpKeys;
import io.pagora.payments.api.application.directory.payment.PayingByKey;
import io.pagora.payments.api.application.directory.registration.RegisteringKeys;
import io.pagora.payments.api.application.intake.AccountDirectory;
import io.pagora.payments.api.application.intake.Admission;
import io.pagora.payments.api.application.intake.InMemoryIdempotencyKeys;
import io.pagora.payments.api.application.intake.MutableClock;
import io.pagora.payments.api.application.intake.PaymentIntake;
import io.pagora.payments.api.application.intake.PaymentPublisher;
import io.pagora.payments.api.application.intake.PaymentPublisher.Publication;
import io.pagora.payments.api.application.limits.ParticipantTokenBuckets;
import io.pagora.payments.api.application.limits.UnknownAccountLimit;
import io.pagora.payments.api.domain.PaymentRules;
import io.pagora.payments.api.domain.directory.AntiScanPolicy;
import io.pagora.settlement.application.AccessRefusals;
import io.pagora.settlement.application.Participants;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.access.Caller;
import io.pagora.testing.ledger.ReferenceLedger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The directory's use cases and the intake on in-memory fakes: the reference ledger with two banks (customers 1..8
 * each), the key and look-up stores in memory on a test clock, and a publisher that acknowledges every event.
 */
public final class DirectoryOnFakes {

    public static final BankId BANK_A = new BankId(41);
    public static final BankId BANK_B = new BankId(42);
    public static final Caller A = new Caller.Bank(BANK_A);
    public static final Caller B = new Caller.Bank(BANK_B);
    public static final Duration VALID_FOR = Duration.ofMinutes(10);

    public final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));
    public final InMemoryKeyStore keys = new InMemoryKeyStore();
    public final InMemoryLookupStore lookupStore = new InMemoryLookupStore(clock, keys);
    public final RegisteringKeys registering;
    public final AccountDirectory accounts;
    public final LookingUpKeys lookingUp;
    public final PaymentIntake intake;
    public final List<PaymentRequested> published = new ArrayList<>();

    public DirectoryOnFakes(AntiScanPolicy policy) {
        ReferenceLedger ledger = ReferenceLedger.onWallClock();
        Participants participants = new Participants(ledger);
        participants.openCentralBank();
        participants.registerBank(BANK_A);
        participants.registerBank(BANK_B);
        participants.openCustomers(BANK_A, List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L));
        participants.openCustomers(BANK_B, List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L));
        accounts = new AccountDirectory(ledger, 1_000);
        TimeOrderedIds ids = new TimeOrderedIds(clock);
        registering = new RegisteringKeys(keys, accounts, clock, UUID::randomUUID);
        lookingUp = new LookingUpKeys(lookupStore, policy, ids);
        PaymentPublisher publisher = events -> {
            published.addAll(events);
            return events.stream()
                    .map(event -> (Publication) new Publication.Acked())
                    .toList();
        };
        intake = new PaymentIntake(
                new PaymentRules(1_000_000_00L, 30),
                accounts,
                new InMemoryIdempotencyKeys(clock, 30),
                publisher,
                ids,
                clock,
                new Admission(() -> 0, 1_000_000, 1_000),
                AccessRefusals.UNCOUNTED,
                new UnknownAccountLimit(new ParticipantTokenBuckets(1_000, 1_000, 16, System::nanoTime)),
                new PayingByKey(lookupStore, lookingUp, VALID_FOR, clock));
    }

    public static Id128 account(BankId bank, long number) {
        return ChartOfAccounts.customer(bank, number);
    }
}
