package io.pagora.clearing.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.PaymentId;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import java.util.stream.LongStream;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** The parked form of instructed payments: ids only, read back exactly, and anything else refused, never guessed. */
class InstructedIdsRecordTest {

    @Test
    void idsComeBackAsTheyWereParkedUpToTheLimit() {
        List<PaymentId> ids = LongStream.range(0, KafkaUnansweredPayments.IDS_PER_RECORD_MAX)
                .mapToObj(i -> new PaymentId(new Id128(i - 7, (Long.MIN_VALUE >>> 8) + ((i + 1) << 8)))).toList();

        assertThat(KafkaUnansweredPayments.decodeIds(KafkaUnansweredPayments.encodeIds(ids))).isEqualTo(ids);
    }

    @Test
    void aValueThatIsNotWholeIdsIsRefused() {
        assertThatThrownBy(() -> KafkaUnansweredPayments.decodeIds(new byte[17])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("17 bytes");
        assertThatThrownBy(() -> KafkaUnansweredPayments.decodeIds(new byte[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KafkaUnansweredPayments.decodeIds(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KafkaUnansweredPayments.decodeIds(new byte[16 * (KafkaUnansweredPayments.IDS_PER_RECORD_MAX + 1)]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPollOfIdRecordsIsExpiredInBoundedGroupsAndAnUnreadableRecordIsSetAside() {
        // A poll can hold thousands of such records when answers fall behind: expired all at once, their ids, pending
        // legs and voids ended clearing in OutOfMemoryError.
        List<ConsumerRecord<String, byte[]>> poll = List.of(record(0, 3), record(1, 4), record(2, 0), record(3, 9),
                record(4, 2), record(5, 1));
        List<Integer> groupSizes = new ArrayList<>();
        List<PaymentId> expired = new ArrayList<>();

        List<DeadLetters.DeadLetter> unreadable = UnansweredListener.inGroups(poll, 8, group -> {
            groupSizes.add(group.values().stream().mapToInt(List::size).sum());
            group.values().forEach(expired::addAll);
        });

        assertThat(groupSizes).as("at most 8 ids a group; the record of 9 alone").containsExactly(7, 9, 3);
        assertThat(expired).hasSize(19).doesNotHaveDuplicates();
        assertThat(unreadable).extracting(letter -> letter.record().offset()).containsExactly(2L);
    }

    private static ConsumerRecord<String, byte[]> record(long offset, int ids) {
        byte[] value = ids == 0 ? new byte[5] : KafkaUnansweredPayments.encodeIds(LongStream.range(0, ids)
                .mapToObj(i -> new PaymentId(new Id128(offset + 1, (i + 1) << 8))).toList());
        return new ConsumerRecord<>("pagora.clearing.unanswered.v1", 0, offset, null, value);
    }

    @Test
    void onlyTheMarkedKindIsReadAsIds() {
        RecordHeaders marked = new RecordHeaders();
        marked.add(KafkaUnansweredPayments.KIND_HEADER, "instructed-ids".getBytes(StandardCharsets.US_ASCII));
        RecordHeaders other = new RecordHeaders();
        other.add(KafkaUnansweredPayments.KIND_HEADER, "something-else".getBytes(StandardCharsets.US_ASCII));

        assertThat(KafkaUnansweredPayments.holdsInstructedIds(marked)).isTrue();
        assertThat(KafkaUnansweredPayments.holdsInstructedIds(other)).isFalse();
        assertThat(KafkaUnansweredPayments.holdsInstructedIds(new RecordHeaders())).isFalse();
    }
}
