package io.pagora.local.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentExpired;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentSettled;
import io.pagora.events.RejectionReason;
import io.pagora.kernel.Id128;
import io.pagora.local.readside.OutcomeLog;
import io.pagora.local.runfiles.AcceptedPayments;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How a chaos scenario is judged: what counts as lost, duplicated, recovered, and what a poison record is. */
class ChaosCheckTest {

    private static final String PAYER = "04000000000000010000000000000001";
    private static final String PAYEE = "040000000000000200000000000003e9";
    private static final Instant AT = Instant.parse("2026-11-23T12:00:00Z");

    @TempDir
    Path dir;

    @Test
    void aScenarioPassesOnlyWithNothingLostNothingDuplicatedRecoveredAndEveryInvariantHolding() {
        ChaosSummary clean = new ChaosSummary(
                "kill-reporting",
                "tigerbeetle",
                10,
                10,
                10,
                10,
                0,
                0,
                Duration.ofSeconds(7),
                Duration.ofMillis(3400),
                2,
                4,
                4,
                0);
        assertThat(clean.passed()).isTrue();
        assertThat(clean.line())
                .isEqualTo(
                        "CHAOS kill-reporting         ledger=tigerbeetle offered=10 accepted=10 final=10 settled=10 "
                                + "lost=0 duplicated=0 fault=7.0s recovery=3.4s degraded=2s invariants=4/4 dead-lettered=0 PASS");

        assertThat(new ChaosSummary("s", "l", 10, 10, 9, 9, 1, 0, Duration.ofSeconds(7), Duration.ZERO, 2, 4, 4, 0)
                        .passed())
                .as("one lost")
                .isFalse();
        assertThat(new ChaosSummary("s", "l", 10, 10, 10, 10, 0, 1, Duration.ofSeconds(7), Duration.ZERO, 2, 4, 4, 0)
                        .passed())
                .as("one duplicated")
                .isFalse();
        assertThat(new ChaosSummary("s", "l", 10, 10, 10, 10, 0, 0, Duration.ofSeconds(7), null, 2, 4, 4, 0).passed())
                .as("never recovered")
                .isFalse();
        assertThat(new ChaosSummary("s", "l", 10, 10, 10, 10, 0, 0, Duration.ofSeconds(7), Duration.ZERO, 2, 3, 4, 0)
                        .passed())
                .as("a check failed")
                .isFalse();
        assertThat(new ChaosSummary("s", "l", 10, 10, 10, 10, 0, 0, Duration.ofSeconds(7), null, 2, 4, 4, 0).line())
                .contains("recovery=never")
                .endsWith("FAIL");
    }

    @Test
    void aScenarioWhoseLoadWasNotAcceptedFailsHoweverCleanItsChecks() {
        // What every scenario printed when k6 could not reach the TLS services: nothing sent, nothing to judge.
        ChaosSummary vacuous = new ChaosSummary(
                "kill-reporting", "postgresql", 6000, 0, 0, 0, 0, 0, Duration.ofSeconds(7), Duration.ZERO, 2, 4, 4, 0);
        assertThat(vacuous.passed()).as("zero accepted").isFalse();
        assertThat(vacuous.line()).contains("offered=6000 accepted=0").endsWith("FAIL");

        assertThat(new ChaosSummary(
                                "s",
                                "l",
                                6000,
                                2999,
                                2999,
                                2999,
                                0,
                                0,
                                Duration.ofSeconds(7),
                                Duration.ZERO,
                                2,
                                4,
                                4,
                                0)
                        .passed())
                .as("below half the offered load")
                .isFalse();
        assertThat(new ChaosSummary(
                                "s",
                                "l",
                                6000,
                                3000,
                                3000,
                                3000,
                                0,
                                0,
                                Duration.ofSeconds(7),
                                Duration.ZERO,
                                2,
                                4,
                                4,
                                0)
                        .passed())
                .as("half the offered load")
                .isTrue();
        assertThat(new ChaosSummary("s", "l", 0, 0, 0, 0, 0, 0, Duration.ofSeconds(7), Duration.ZERO, 2, 4, 4, 0)
                        .passed())
                .as("nothing offered is no work seen either")
                .isFalse();
    }

    @Test
    void aScenarioWhosePaymentsWereMostlyRefusedFailsHoweverCleanItsChecks() {
        // What the fault catalogue ran on the demo's deliberately poor seeding: 25,000 accepted, 1 settled.
        ChaosSummary refused = new ChaosSummary(
                "slow-bank",
                "tigerbeetle",
                6000,
                25_001,
                25_001,
                1,
                0,
                0,
                Duration.ofSeconds(7),
                Duration.ZERO,
                2,
                4,
                4,
                0);
        assertThat(refused.passed()).isFalse();
        assertThat(refused.line()).contains("final=25001 settled=1").endsWith("FAIL");
        assertThat(refused.line())
                .as("the seconds settlement was below half its steady rate")
                .contains("degraded=2s");
        assertThat(new ChaosSummary("s", "l", 10, 10, 10, 10, 0, 0, Duration.ofSeconds(7), Duration.ZERO, -1, 4, 4, 0)
                        .line())
                .as("no steady rate before the fault: no figure")
                .contains("degraded=n/a");

        assertThat(new ChaosSummary(
                                "s",
                                "l",
                                6000,
                                6000,
                                6000,
                                1499,
                                0,
                                0,
                                Duration.ofSeconds(7),
                                Duration.ZERO,
                                2,
                                4,
                                4,
                                0)
                        .passed())
                .as("under a quarter settled")
                .isFalse();
        assertThat(new ChaosSummary(
                                "s",
                                "l",
                                6000,
                                6000,
                                6000,
                                1500,
                                0,
                                0,
                                Duration.ofSeconds(7),
                                Duration.ZERO,
                                2,
                                4,
                                4,
                                0)
                        .passed())
                .as("a quarter settled")
                .isTrue();
    }

    @Test
    void finalAndLostMustAddUpToAccepted() {
        assertThatThrownBy(() -> new ChaosSummary(
                        "s", "l", 10, 10, 8, 8, 1, 0, Duration.ofSeconds(7), Duration.ZERO, 2, 4, 4, 0))
                .hasMessageContaining("final 8 + lost 1 = accepted 10");
    }

    @Test
    void aPaymentToldTwoDifferentFinalStatesIsDuplicatedButTheSameOutcomeRedeliveredIsNot() {
        String twice = id(0x100);
        String redelivered = id(0x200);
        List<byte[]> topic = new ArrayList<>();
        topic.add(PaymentEventCodec.encode(new PaymentSettled(twice, PAYER, PAYEE, 100, AT, AT)));
        topic.add(PaymentEventCodec.encode(
                new PaymentRejected(twice, PAYER, PAYEE, 100, RejectionReason.INSUFFICIENT_FUNDS, "no money", AT, AT)));
        topic.add(PaymentEventCodec.encode(new PaymentExpired(redelivered, PAYER, PAYEE, 100, AT, AT)));
        topic.add(PaymentEventCodec.encode(new PaymentExpired(redelivered, PAYER, PAYEE, 100, AT, AT)));
        topic.add("garbage".getBytes(StandardCharsets.UTF_8));
        topic.add(null);

        OutcomeLog outcomes = OutcomeLog.of(topic);

        assertThat(outcomes.records()).isEqualTo(6);
        assertThat(outcomes.undecodable()).isEqualTo(2);
        assertThat(outcomes.conflicting()).containsExactly(twice + " [REJECTED, SETTLED]");
        List<UUID> accepted = List.of(uuid(twice), uuid(redelivered), uuid(id(0x300)));
        assertThat(ChaosCheck.duplicated(accepted, outcomes)).isEqualTo(1);
    }

    @Test
    void everyPoisonRecordIsRefusedByThePlatformsOwnDecoder() {
        for (PoisonRecords.Poison poison : PoisonRecords.poisons()) {
            if (poison.value() == null) {
                continue; // a tombstone: no bytes to decode; consumers see a null value
            }
            assertThatThrownBy(() -> PaymentEventCodec.decode(poison.value()))
                    .as(poison.name())
                    .isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(PoisonRecords.poisons())
                .extracting(PoisonRecords.Poison::name)
                .doesNotHaveDuplicates();
    }

    @Test
    void theAnswersAtTheFaultsEndLeaveOutALineStillBeingWritten() throws Exception {
        Path answers = dir.resolve("kill-clearing-twice" + ChaosCheck.ANSWERS_SUFFIX);
        Files.writeString(
                answers,
                "ACCEPTED\tk1\t" + id(0x100) + "\t202\tfirst\nACCEPTED\tk2\t" + id(0x100) + "\t202\tdup\n"
                        + "UNANSWERED\tk3\t0\nACCEPTED\tk4\t" + id(0x2));

        List<UUID> ids = ChaosCheck.acceptedIds(AcceptedPayments.read(answers));

        assertThat(ids).containsExactly(uuid(id(0x100)));
        assertThat(AcceptedPayments.completeLines(dir.resolve("not-yet-written.answers.log")))
                .isEmpty();
    }

    private static String id(long lo) {
        return Id128.of(lo).toString();
    }

    private static UUID uuid(String id) {
        return Id128.parse(id).toUuid();
    }
}
