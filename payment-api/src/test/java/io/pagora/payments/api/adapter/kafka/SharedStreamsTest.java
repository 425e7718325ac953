package io.pagora.payments.api.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.adapter.kafka.PartitionWindowTest.OwnReads;
import io.pagora.payments.api.adapter.kafka.PartitionWindowTest.Partition;
import io.pagora.payments.api.application.streams.ParticipantStreams;
import io.pagora.payments.api.application.streams.StreamPositions;
import io.pagora.settlement.domain.BankId;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * The streams' promises (docs/participants.md) kept over a partition read once for two banks: each stream gets only
 * its bank's messages in order; a lapsed lease comes again, the same messages, to another stream; a restart delivers
 * again from the acknowledged position; and the partition is fetched once for both banks throughout.
 */
class SharedStreamsTest {

    static final BankId A = PartitionWindowTest.A;
    static final BankId B = PartitionWindowTest.B;
    static final Duration LEASE = Duration.ofSeconds(10);

    final Partition partition = new Partition(500);
    final Positions positions = new Positions();
    final MutableClock clock = new MutableClock();

    @Test
    void twoBanksStreamsKeepTheirPromisesOverOneFetchOfThePartition() {
        List<Long> mine = new ArrayList<>();
        List<Long> theirs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            mine.add(partition.append(A, i % 3 == 0 ? 1 : 0));
            theirs.add(partition.append(B, 0));
        }
        SharedMessageLog log = log();
        ParticipantStreams streams = streams(log);

        ParticipantStreams.Pull a1 = streams.start(A);
        ParticipantStreams.Pull b1 = streams.start(B);
        ParticipantStreams.Pull b2 = streams.pull(B, b1.nextToken());
        assertThat(positions(a1)).as("A's first pull: its oldest messages only").isEqualTo(mine.subList(0, 4));
        assertThat(positions(b1)).isEqualTo(theirs.subList(0, 4));
        assertThat(positions(b2))
                .as("the next pull picks up where the last stopped")
                .isEqualTo(theirs.subList(4, 8));

        // A's first stream goes away: past the lease, its messages go to A's next stream, the same ones, first.
        clock.now = clock.now.plus(LEASE).plusSeconds(1);
        ParticipantStreams.Pull again = streams.start(A);
        assertThat(positions(again)).as("the lapsed lease, again").isEqualTo(mine.subList(0, 4));
        ParticipantStreams.Pull a2 = streams.pull(A, again.nextToken());
        assertThat(positions(a2)).isEqualTo(mine.subList(4, 8));
        assertThat(positions.saved.get(A))
                .as("acknowledged past A's first four messages, not past its fifth")
                .isBetween(mine.get(3) + 1, mine.get(4));
        assertThat(positions.saved.get(B)).isBetween(theirs.get(3) + 1, theirs.get(4));
        assertThat(log.recordsFetched())
                .as("the partition fetched once for both")
                .isEqualTo(20);

        // A restart: a new log and new streams deliver again from the acknowledged positions.
        SharedMessageLog restartedLog = log();
        ParticipantStreams restarted = streams(restartedLog);
        assertThat(positions(restarted.start(A))).isEqualTo(mine.subList(4, 8));
        assertThat(positions(restarted.start(B))).isEqualTo(theirs.subList(4, 8));
        long older = Math.min(positions.saved.get(A), positions.saved.get(B));
        assertThat(restartedLog.recordsFetched())
                .as("from the older acknowledged position on, once")
                .isEqualTo(partition.records.stream()
                        .filter(record -> record.offset() >= older)
                        .count());
    }

    private SharedMessageLog log() {
        OwnReads own = new OwnReads(partition);
        return new SharedMessageLog(
                own,
                () -> own.fetched,
                p -> new PartitionWindow(
                        partition,
                        PartitionWindowTest.READ_TIMEOUT,
                        PartitionWindow.RECORDS_MAX,
                        PartitionWindow.BYTES_MAX));
    }

    private ParticipantStreams streams(SharedMessageLog log) {
        return new ParticipantStreams(
                log,
                positions,
                new ParticipantStreams.Limits(6, 4, Duration.ZERO, LEASE, Duration.ofSeconds(60)),
                clock);
    }

    private static List<Long> positions(ParticipantStreams.Pull pull) {
        List<Long> positions = new ArrayList<>();
        for (byte[] record : pull.records()) {
            String text = new String(record, StandardCharsets.US_ASCII);
            positions.add(Long.parseLong(text.substring(2, text.length() - 2)));
        }
        return positions;
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
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
