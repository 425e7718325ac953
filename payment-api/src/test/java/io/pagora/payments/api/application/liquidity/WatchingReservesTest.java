package io.pagora.payments.api.application.liquidity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.TransferResult;
import io.pagora.payments.api.application.intake.MutableClock;
import io.pagora.payments.api.domain.liquidity.ReserveWatch.Crossing;
import io.pagora.payments.api.domain.liquidity.Watermarks;
import io.pagora.settlement.application.Participants;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.TransferCode;
import io.pagora.testing.ledger.ReferenceLedger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The rounds of {@link WatchingReserves} on the reference ledger and an in-memory store. */
class WatchingReservesTest {

    static final BankId BANK = new BankId(10_001_111);
    static final BankId OTHER = new BankId(10_002_222);
    static final Watermarks MARKS = new Watermarks(100_000, 300_000);

    final ReferenceLedger ledger = ReferenceLedger.onWallClock();
    final Participants participants = new Participants(ledger);
    final InMemoryLiquidityWatches watches = new InMemoryLiquidityWatches();
    final RecordingNotices notices = new RecordingNotices();
    final MutableClock clock = new MutableClock(Instant.parse("2026-11-29T12:00:00Z"));
    final AtomicLong ids = new AtomicLong(1);
    WatchingReserves reserves;

    @BeforeEach
    void setUp() {
        participants.openCentralBank();
        participants.registerBank(BANK);
        participants.registerBank(OTHER);
        fund(BANK, 500_000);
        fund(OTHER, 500_000);
        reserves = new WatchingReserves(watches, notices, ledger, clock);
    }

    /** Every test moves reserve money: the books balance after it, and no reserve is below zero. */
    @org.junit.jupiter.api.AfterEach
    void moneyInvariants() {
        io.pagora.testing.ledger.MoneyInvariants.check(
                ledger,
                List.of(
                        ChartOfAccounts.centralBank(),
                        ChartOfAccounts.reserve(BANK),
                        ChartOfAccounts.transit(BANK),
                        ChartOfAccounts.reserve(OTHER),
                        ChartOfAccounts.transit(OTHER)),
                "after the liquidity rounds");
    }

    @Test
    void alertsOnceBelowTheLowWatermarkAndAgainOnlyAfterRecoveringAboveTheHighOne() {
        watches.setWatermarks(BANK, MARKS, clock.instant());
        assertThat(reserves.round().crossings()).isEmpty();

        pay(BANK, OTHER, 450_000); // 50,000 left: below the low watermark
        WatchingReserves.Round fell = reserves.round();
        assertThat(fell.crossings()).containsExactly(Crossing.FELL_BELOW_LOW);
        assertThat(notices.told).singleElement().satisfies(told -> {
            assertThat(told.sequence()).isEqualTo(1);
            assertThat(told.last().orElseThrow().availableCentavos()).isEqualTo(50_000);
        });

        pay(BANK, OTHER, 10_000); // still below, then hovering between the two watermarks: no second alert
        assertThat(reserves.round().crossings()).isEmpty();
        pay(OTHER, BANK, 200_000);
        assertThat(reserves.round().crossings()).isEmpty();
        pay(BANK, OTHER, 150_000);
        assertThat(reserves.round().crossings()).isEmpty();
        assertThat(notices.told).hasSize(1);

        pay(OTHER, BANK, 400_000); // 490,000: above the high watermark
        assertThat(reserves.round().crossings()).containsExactly(Crossing.RECOVERED_ABOVE_HIGH);
        pay(BANK, OTHER, 450_000);
        assertThat(reserves.round().crossings()).containsExactly(Crossing.FELL_BELOW_LOW);
        assertThat(notices.told).extracting(WatchedReserve::sequence).containsExactly(1L, 2L, 3L);
        assertThat(reserves.readings())
                .singleElement()
                .satisfies(reading -> assertThat(reading.availableCentavos()).isEqualTo(40_000));
    }

    @Test
    void fundingBackToTheLowWatermarkClearsTheAlert() {
        watches.setWatermarks(BANK, MARKS, clock.instant());
        pay(BANK, OTHER, 450_000);
        reserves.round();
        fund(BANK, 20_000);
        assertThat(reserves.funded(BANK))
                .as("70,000: still below the low watermark")
                .isFalse();
        fund(BANK, 40_000);
        assertThat(reserves.funded(BANK)).isTrue();
        assertThat(notices.told.getLast().last().orElseThrow().crossing()).isEqualTo(Crossing.CLEARED_BY_FUNDING);
        assertThat(reserves.round().crossings()).isEmpty();
        assertThat(reserves.funded(OTHER)).as("not watched").isFalse();
    }

    @Test
    void pendingDebitsCountAgainstTheReserve() {
        watches.setWatermarks(BANK, MARKS, clock.instant());
        TransferResult held = ledger.createTransfers(List.of(NewTransfer.pending(
                        new Id128(7, ids.getAndIncrement()),
                        ChartOfAccounts.reserve(BANK),
                        ChartOfAccounts.reserve(OTHER),
                        450_000,
                        60,
                        ChartOfAccounts.LEDGER_BRL,
                        TransferCode.RESERVE_TO_RESERVE,
                        Id128.ZERO)))
                .getFirst();
        assertThat(held).isEqualTo(TransferResult.OK);
        assertThat(reserves.round().crossings()).containsExactly(Crossing.FELL_BELOW_LOW);
    }

    @Test
    void aCrossingTheBrokerDidNotTakeIsToldAgainByTheNextRoundWithTheSameSequence() {
        watches.setWatermarks(BANK, MARKS, clock.instant());
        pay(BANK, OTHER, 450_000);
        notices.failing = true;
        assertThatThrownBy(reserves::round).isInstanceOf(IllegalStateException.class);
        assertThat(watches.of(BANK).orElseThrow().untold()).isTrue();

        notices.failing = false;
        WatchingReserves.Round again = reserves.round();
        assertThat(again.crossings()).as("recorded once").isEmpty();
        assertThat(again.told()).isEqualTo(1);
        assertThat(notices.told)
                .singleElement()
                .satisfies(told -> assertThat(told.sequence()).isEqualTo(1));
        assertThat(reserves.round().told()).isZero();
    }

    @Test
    void ofTwoInstancesReadingTheSameBalanceOneRecordsTheCrossing() {
        watches.setWatermarks(BANK, MARKS, clock.instant());
        pay(BANK, OTHER, 450_000);
        WatchedReserve seenByBoth = watches.of(BANK).orElseThrow();
        WatchingReserves other = new WatchingReserves(watches, notices, ledger, clock);
        assertThat(other.round().crossings()).containsExactly(Crossing.FELL_BELOW_LOW);
        var stale = seenByBoth.watch().read(50_000, MARKS, clock.instant());
        assertThat(watches.cross(seenByBoth, stale.watch(), stale.crossing().orElseThrow(), 50_000))
                .isFalse();
        assertThat(reserves.round().crossings()).isEmpty();
        assertThat(notices.told).hasSize(1);
    }

    @Test
    void changingTheWatermarksKeepsTheStateAndRaisesNothingByItself() {
        watches.setWatermarks(BANK, MARKS, clock.instant());
        pay(BANK, OTHER, 450_000);
        reserves.round();
        clock.set(clock.instant().plus(Duration.ofMinutes(1)));
        watches.setWatermarks(BANK, new Watermarks(10_000, 40_000), clock.instant());
        assertThat(reserves.round().crossings())
                .as("50,000 is above the new high watermark: recovered")
                .containsExactly(Crossing.RECOVERED_ABOVE_HIGH);
        assertThat(notices.told.getLast().last().orElseThrow().marks()).isEqualTo(new Watermarks(10_000, 40_000));
    }

    private void fund(BankId bank, long centavos) {
        assertThat(participants.fundReserve(new Id128(7, ids.getAndIncrement()), bank, centavos))
                .isEqualTo(TransferResult.OK);
    }

    private void pay(BankId from, BankId to, long centavos) {
        assertThat(ledger.createTransfers(List.of(NewTransfer.posted(
                                new Id128(7, ids.getAndIncrement()),
                                ChartOfAccounts.reserve(from),
                                ChartOfAccounts.reserve(to),
                                centavos,
                                ChartOfAccounts.LEDGER_BRL,
                                TransferCode.RESERVE_TO_RESERVE,
                                Id128.ZERO)))
                        .getFirst())
                .isEqualTo(TransferResult.OK);
    }

    static final class RecordingNotices implements LiquidityNotices {
        final List<WatchedReserve> told = new ArrayList<>();
        boolean failing;

        @Override
        public void tell(List<WatchedReserve> crossed) {
            if (failing) {
                throw new IllegalStateException("the broker did not take the liquidity alerts");
            }
            told.addAll(crossed);
        }
    }
}
