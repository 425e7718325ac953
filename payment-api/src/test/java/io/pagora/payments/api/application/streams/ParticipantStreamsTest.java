package io.pagora.payments.api.application.streams;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.payments.api.domain.RefusalException;
import io.pagora.settlement.domain.BankId;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The streams' delivery rules, on an in-memory log: at least once (until acknowledged), shared out among a bank's
 * streams, a lapsed lease delivered again to another stream, a repeated pull answered the same, a used token stale,
 * the durable position only ever at the oldest unacknowledged message, and every bound refused specifically.
 */
class ParticipantStreamsTest {

    static final BankId BANK = new BankId(10_001_111);
    static final BankId OTHER = new BankId(10_002_222);

    /** One partition: records of both banks, in order, one message each. */
    static class Log implements MessageLog {
        final List<BankId> owners = new ArrayList<>();

        void append(BankId bank, int records) {
            for (int i = 0; i < records; i++) {
                owners.add(bank);
            }
        }

        @Override
        public int partitionOf(BankId bank) {
            return 0;
        }

        @Override
        public long start(BankId bank) {
            return 0;
        }

        @Override
        public Slice read(BankId bank, long from, long until, int messagesMax, long waitMillis) {
            List<byte[]> records = new ArrayList<>();
            long next = from;
            for (long offset = from;
                    offset < Math.min(until, owners.size()) && records.size() < messagesMax;
                    offset++) {
                if (owners.get((int) offset).equals(bank)) {
                    records.add(("[" + offset + "]").getBytes(StandardCharsets.US_ASCII));
                }
                next = offset + 1;
            }
            return new Slice(records, records.size(), next);
        }
    }

    static final class Positions implements StreamPositions {
        final Map<BankId, Long> saved = new HashMap<>();

        @Override
        public OptionalLong acknowledged(BankId bank, int partition) {
            Long position = saved.get(bank);
            return position == null ? OptionalLong.empty() : OptionalLong.of(position);
        }

        @Override
        public void acknowledge(BankId bank, int partition, long position) {
            assertThat(position).as("positions only move forward").isGreaterThanOrEqualTo(saved.getOrDefault(bank, 0L));
            saved.put(bank, position);
        }
    }

    static final class MutableClock extends Clock {
        Instant now = Instant.parse("2026-11-26T12:00:00Z");

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    final Log log = new Log();
    final Positions positions = new Positions();
    final MutableClock clock = new MutableClock();
    final ParticipantStreams streams = new ParticipantStreams(
            log,
            positions,
            new ParticipantStreams.Limits(2, 2, Duration.ZERO, Duration.ofSeconds(30), Duration.ofSeconds(60)),
            clock);

    static List<String> offsets(ParticipantStreams.Pull pull) {
        return pull.records().stream()
                .map(bytes -> new String(bytes, StandardCharsets.US_ASCII))
                .toList();
    }

    static String token(ParticipantStreams.Pull pull) {
        return pull.nextToken();
    }

    @Test
    void aStreamReadsOnlyItsBanksMessagesInOrderAndTheNextPullAcknowledges() {
        log.append(BANK, 1);
        log.append(OTHER, 1);
        log.append(BANK, 2);
        ParticipantStreams.Pull first = streams.start(BANK);
        assertThat(offsets(first)).containsExactly("[0]", "[2]");
        assertThat(positions.saved).as("nothing acknowledged yet").isEmpty();
        ParticipantStreams.Pull second = streams.pull(BANK, token(first));
        assertThat(offsets(second)).containsExactly("[3]");
        assertThat(positions.saved.get(BANK))
                .as("the first pull's messages are acknowledged")
                .isEqualTo(3L);
        ParticipantStreams.Pull empty = streams.pull(BANK, token(second));
        assertThat(empty.count()).isZero();
        assertThat(positions.saved.get(BANK)).isEqualTo(4L);
    }

    @Test
    void theSamePullAgainGetsTheSameMessagesAndAnOlderTokenIsStale() {
        log.append(BANK, 4);
        ParticipantStreams.Pull first = streams.start(BANK);
        ParticipantStreams.Pull second = streams.pull(BANK, token(first));
        ParticipantStreams.Pull again = streams.pull(BANK, token(first));
        assertThat(offsets(again))
                .as("an answer lost on the way: the same messages")
                .isEqualTo(offsets(second));
        assertThat(token(again)).isEqualTo(token(second));
        streams.pull(BANK, token(second));
        assertThatThrownBy(() -> streams.pull(BANK, token(first)))
                .isInstanceOf(RefusalException.class)
                .hasMessageStartingWith("stale-token");
    }

    @Test
    void aLapsedLeaseGoesToAnotherStreamAndTheDurablePositionWaitsForIt() {
        log.append(BANK, 4);
        ParticipantStreams.Pull abandoned = streams.start(BANK);
        assertThat(offsets(abandoned)).containsExactly("[0]", "[1]");
        ParticipantStreams.Pull other = streams.start(BANK);
        assertThat(offsets(other)).as("streams share the messages out").containsExactly("[2]", "[3]");
        streams.pull(BANK, token(other));
        assertThat(positions.saved.getOrDefault(BANK, 0L))
                .as("the oldest unacknowledged message holds the position")
                .isZero();

        clock.now = clock.now.plusSeconds(31);
        ParticipantStreams.Pull redelivered =
                streams.pull(BANK, streams.pull(BANK, token(other)).nextToken());
        assertThat(offsets(redelivered))
                .as("after the lease, another stream gets them")
                .containsExactly("[0]", "[1]");
        streams.close(BANK, token(redelivered));
        assertThat(positions.saved.get(BANK)).isEqualTo(4L);
    }

    @Test
    void aRedeliveredRangeReadOnlyInPartIsAcknowledgedOnlyAsFarAsItWasHandedOut() {
        PartialLog partial = new PartialLog();
        partial.append(BANK, 2);
        ParticipantStreams streams = new ParticipantStreams(
                partial,
                positions,
                new ParticipantStreams.Limits(2, 2, Duration.ZERO, Duration.ofSeconds(30), Duration.ofSeconds(60)),
                clock);
        ParticipantStreams.Pull abandoned = streams.start(BANK);
        assertThat(offsets(abandoned)).containsExactly("[0]", "[1]");

        clock.now = clock.now.plusSeconds(31);
        ParticipantStreams.Pull partly = streams.start(BANK);
        assertThat(offsets(partly))
                .as("the read of the lapsed range stopped after its first record")
                .containsExactly("[0]");
        ParticipantStreams.Pull rest = streams.pull(BANK, token(partly));
        assertThat(positions.saved.getOrDefault(BANK, 0L))
                .as("offset 1 was never handed out: not acknowledged")
                .isLessThanOrEqualTo(1L);
        assertThat(offsets(rest)).as("the rest of the range comes again").containsExactly("[1]");
        streams.pull(BANK, token(rest));
        assertThat(positions.saved.get(BANK)).isEqualTo(2L);
    }

    @Test
    void aRedeliveredRangeWhoseReadFailsComesOnALaterPull() {
        FailingLog failing = new FailingLog();
        failing.append(BANK, 2);
        ParticipantStreams streams = new ParticipantStreams(
                failing,
                positions,
                new ParticipantStreams.Limits(2, 2, Duration.ZERO, Duration.ofSeconds(30), Duration.ofSeconds(60)),
                clock);
        ParticipantStreams.Pull slow = streams.start(BANK);
        assertThat(offsets(slow)).containsExactly("[0]", "[1]");

        clock.now = clock.now.plusSeconds(31);
        failing.rangeFailures = 1;
        assertThatThrownBy(() -> streams.start(BANK)).isInstanceOf(IllegalStateException.class);
        ParticipantStreams.Pull later = streams.pull(BANK, token(slow));
        assertThat(offsets(later))
                .as("the lapsed range, whose read failed once, on the next pull")
                .containsExactly("[0]", "[1]");
        assertThat(positions.saved.getOrDefault(BANK, 0L)).isZero();
        streams.pull(BANK, token(later));
        assertThat(positions.saved.get(BANK)).isEqualTo(2L);
    }

    @Test
    void aRedeliveryReadThatFindsNothingKeepsWhatTheLogStillHoldsOfTheRange() {
        AgingLog aging = new AgingLog();
        aging.append(BANK, 4);
        ParticipantStreams streams = new ParticipantStreams(
                aging,
                positions,
                new ParticipantStreams.Limits(2, 4, Duration.ZERO, Duration.ofSeconds(30), Duration.ofSeconds(60)),
                clock);
        ParticipantStreams.Pull abandoned = streams.start(BANK);
        assertThat(offsets(abandoned)).containsExactly("[0]", "[1]", "[2]", "[3]");

        clock.now = clock.now.plusSeconds(31);
        aging.start = 2;
        aging.emptyRangeReads = 1;
        ParticipantStreams.Pull empty = streams.start(BANK);
        assertThat(offsets(empty))
                .as("the re-read found nothing: nothing handed out")
                .isEmpty();
        ParticipantStreams.Pull later = streams.pull(BANK, token(empty));
        assertThat(offsets(later))
                .as("offsets 0 and 1 aged out; 2 and 3 are still in the log and come again")
                .containsExactly("[2]", "[3]");
        assertThat(positions.saved.getOrDefault(BANK, 0L))
                .as("never past what was not handed out")
                .isLessThanOrEqualTo(2L);
        streams.pull(BANK, token(later));
        assertThat(positions.saved.get(BANK)).isEqualTo(4L);
    }

    @Test
    void aRedeliveryWhoseLogStartCannotBeReadStaysFirstInLine() {
        AgingLog aging = new AgingLog();
        aging.append(BANK, 2);
        ParticipantStreams streams = new ParticipantStreams(
                aging,
                positions,
                new ParticipantStreams.Limits(2, 2, Duration.ZERO, Duration.ofSeconds(30), Duration.ofSeconds(60)),
                clock);
        ParticipantStreams.Pull slow = streams.start(BANK);
        clock.now = clock.now.plusSeconds(31);
        aging.emptyRangeReads = 1;
        aging.startFailures = 1;
        assertThatThrownBy(() -> streams.start(BANK)).isInstanceOf(IllegalStateException.class);
        ParticipantStreams.Pull later = streams.pull(BANK, token(slow));
        assertThat(offsets(later)).as("the lapsed range, on the next pull").containsExactly("[0]", "[1]");
        assertThat(positions.saved.getOrDefault(BANK, 0L)).isZero();
    }

    /** A log whose start moves (messages age out), whose range reads can find nothing, and whose start can fail. */
    static final class AgingLog extends Log {
        long start;
        int emptyRangeReads;
        int startFailures;

        @Override
        public long start(BankId bank) {
            if (startFailures > 0) {
                startFailures--;
                throw new IllegalStateException("the broker did not answer the offsets request");
            }
            return start;
        }

        @Override
        public Slice read(BankId bank, long from, long until, int messagesMax, long waitMillis) {
            if (until != Long.MAX_VALUE && emptyRangeReads > 0) {
                emptyRangeReads--;
                return Slice.empty(from);
            }
            return super.read(bank, Math.max(from, start), until, messagesMax, waitMillis);
        }
    }

    /** A log whose reads of a bounded range stop after the first record (a read timeout on a slow fetch). */
    static final class PartialLog extends Log {

        @Override
        public Slice read(BankId bank, long from, long until, int messagesMax, long waitMillis) {
            return super.read(
                    bank, from, until == Long.MAX_VALUE ? until : Math.min(until, from + 1), messagesMax, waitMillis);
        }
    }

    /** A log whose next {@code rangeFailures} reads of a bounded range throw (a broker failing over). */
    static final class FailingLog extends Log {
        int rangeFailures;

        @Override
        public Slice read(BankId bank, long from, long until, int messagesMax, long waitMillis) {
            if (until != Long.MAX_VALUE && rangeFailures > 0) {
                rangeFailures--;
                throw new IllegalStateException("the broker did not answer the fetch");
            }
            return super.read(bank, from, until, messagesMax, waitMillis);
        }
    }

    @Test
    void aRestartedGatewayRedeliversFromTheAcknowledgedPosition() {
        log.append(BANK, 3);
        ParticipantStreams.Pull first = streams.start(BANK);
        streams.pull(BANK, token(first));
        ParticipantStreams restarted = new ParticipantStreams(
                log,
                positions,
                new ParticipantStreams.Limits(2, 2, Duration.ZERO, Duration.ofSeconds(30), Duration.ofSeconds(60)),
                clock);
        assertThat(offsets(restarted.start(BANK)))
                .as("acknowledged messages never come again")
                .containsExactly("[2]");
        assertThatThrownBy(() -> restarted.pull(BANK, token(first)))
                .isInstanceOf(RefusalException.class)
                .hasMessageStartingWith("unknown-stream");
    }

    @Test
    void everyBoundIsRefusedSpecifically() {
        streams.start(BANK);
        ParticipantStreams.Pull second = streams.start(BANK);
        assertThatThrownBy(() -> streams.start(BANK)).hasMessageStartingWith("too-many-streams");
        for (String token : List.of(
                "",
                "x",
                "0123456789abcdef01234567",
                "0123456789abcdef01234567.-1",
                "0123456789ABCDEF01234567.0",
                "0123456789abcdef01234567.x",
                "0123456789abcdef01234567." + "9".repeat(60))) {
            assertThatThrownBy(() -> streams.pull(BANK, token)).as(token).hasMessageStartingWith("malformed-token");
        }
        assertThatThrownBy(() -> streams.pull(BANK, "0123456789abcdef01234567.1"))
                .hasMessageStartingWith("unknown-stream");
        assertThatThrownBy(() -> streams.pull(OTHER, token(second)))
                .as("a token is its bank's")
                .hasMessageStartingWith("unknown-stream");
        streams.close(BANK, token(second));
        assertThat(streams.openStreams(BANK))
                .as("a closed stream frees its place")
                .isEqualTo(1);
        ParticipantStreams.Pull third = streams.start(BANK);
        assertThat(token(third)).as("a new stream takes the freed place").isNotEqualTo(token(second));
        assertThat(streams.openStreams(BANK)).isEqualTo(2);
        clock.now = clock.now.plusSeconds(61);
        assertThat(streams.openStreams(BANK)).isEqualTo(2);
        streams.start(BANK);
        assertThat(streams.openStreams(BANK)).as("idle streams were closed").isEqualTo(1);
    }
}
