package io.pagora.clearing.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.clearing.application.UnansweredPayments.Instructed;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.PaymentId;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * The parked form of instructed payments: ids with their end-to-end ids (or, in records of the earlier kind, ids only),
 * read back exactly, and anything else refused, never guessed.
 */
class InstructedIdsRecordTest {

    @Test
    void idsComeBackAsTheyWereParkedUpToTheLimit() {
        List<PaymentId> ids = LongStream.range(0, KafkaUnansweredPayments.IDS_PER_RECORD_MAX)
                .mapToObj(i -> new PaymentId(new Id128(i - 7, (Long.MIN_VALUE >>> 8) + ((i + 1) << 8))))
                .toList();

        assertThat(KafkaUnansweredPayments.decodeIds(KafkaUnansweredPayments.encodeIds(ids)))
                .isEqualTo(ids);
    }

    @Test
    void aValueThatIsNotWholeIdsIsRefused() {
        assertThatThrownBy(() -> KafkaUnansweredPayments.decodeIds(new byte[17]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("17 bytes");
        assertThatThrownBy(() -> KafkaUnansweredPayments.decodeIds(new byte[0]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KafkaUnansweredPayments.decodeIds(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KafkaUnansweredPayments.decodeIds(
                        new byte[16 * (KafkaUnansweredPayments.IDS_PER_RECORD_MAX + 1)]))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aPollOfIdRecordsIsExpiredInBoundedGroupsAndAnUnreadableRecordIsSetAside() {
        // A poll can hold thousands of such records when answers fall behind: expired all at once, their ids, pending
        // legs and voids would all be in memory together.
        List<ConsumerRecord<String, byte[]>> poll =
                List.of(record(0, 3), record(1, 4), record(2, 0), record(3, 9), record(4, 2), record(5, 1));
        List<Integer> groupSizes = new ArrayList<>();
        List<Instructed> expired = new ArrayList<>();

        List<DeadLetters.DeadLetter> unreadable = UnansweredListener.inGroups(poll, 8, group -> {
            groupSizes.add(group.values().stream().mapToInt(List::size).sum());
            group.values().forEach(expired::addAll);
        });

        assertThat(groupSizes)
                .as("at most 8 ids a group; the record of 9 alone")
                .containsExactly(7, 9, 3);
        assertThat(expired).hasSize(19).doesNotHaveDuplicates();
        assertThat(unreadable).extracting(letter -> letter.record().offset()).containsExactly(2L);
    }

    private static ConsumerRecord<String, byte[]> record(long offset, int ids) {
        byte[] value = ids == 0
                ? new byte[5]
                : KafkaUnansweredPayments.encodeIds(LongStream.range(0, ids)
                        .mapToObj(i -> new PaymentId(new Id128(offset + 1, (i + 1) << 8)))
                        .toList());
        return new ConsumerRecord<>("pagora.clearing.unanswered.v1", 0, offset, null, value);
    }

    @Test
    void instructedPaymentsComeBackWithTheirEndToEndIdsUpToTheLimit() {
        String tooLong = "E".repeat(KafkaUnansweredPayments.END_TO_END_ID_BYTES_MAX + 1);
        List<Instructed> parked = LongStream.range(0, KafkaUnansweredPayments.IDS_PER_RECORD_MAX)
                .mapToObj(i -> new Instructed(
                        new PaymentId(new Id128(i - 7, (i + 1) << 8)),
                        i % 3 == 0 ? null : "E10001111202611262252Xq3vR8s" + (1000 + i)))
                .toList();
        List<Instructed> withOddOnes = new ArrayList<>(parked);
        withOddOnes.set(1, new Instructed(parked.get(1).payment(), "Ẽ-não-ASCII"));
        withOddOnes.set(2, new Instructed(parked.get(2).payment(), tooLong));

        List<Instructed> read = KafkaUnansweredPayments.decodeInstructed(
                headers("instructed-payments"), KafkaUnansweredPayments.encodeInstructed(withOddOnes));

        assertThat(read).hasSize(parked.size());
        assertThat(read.subList(3, read.size())).isEqualTo(parked.subList(3, parked.size()));
        assertThat(read.get(0)).isEqualTo(new Instructed(parked.get(0).payment(), null));
        assertThat(read.get(1).endToEndId()).isEqualTo("Ẽ-não-ASCII");
        assertThat(read.get(2))
                .as("longer than any PIX id: not carried")
                .isEqualTo(new Instructed(parked.get(2).payment(), null));
    }

    @Test
    void aRecordOfTheEarlierKindReadsAsIdsWithoutEndToEndIds() {
        List<PaymentId> ids = List.of(new PaymentId(new Id128(1, 1 << 8)), new PaymentId(new Id128(2, 2 << 8)));

        assertThat(KafkaUnansweredPayments.decodeInstructed(
                        headers("instructed-ids"), KafkaUnansweredPayments.encodeIds(ids)))
                .containsExactly(new Instructed(ids.get(0), null), new Instructed(ids.get(1), null));
    }

    @Test
    void aValueThatIsNotWholeInstructedPaymentsIsRefused() {
        RecordHeaders kind = headers("instructed-payments");
        byte[] one = KafkaUnansweredPayments.encodeInstructed(
                List.of(new Instructed(new PaymentId(new Id128(1, 1 << 8)), "E2E")));

        assertThatThrownBy(() ->
                        KafkaUnansweredPayments.decodeInstructed(kind, java.util.Arrays.copyOf(one, one.length - 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KafkaUnansweredPayments.decodeInstructed(kind, java.util.Arrays.copyOf(one, 16)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KafkaUnansweredPayments.decodeInstructed(kind, new byte[0]))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KafkaUnansweredPayments.decodeInstructed(kind, null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static RecordHeaders headers(String kind) {
        RecordHeaders headers = new RecordHeaders();
        headers.add(KafkaUnansweredPayments.KIND_HEADER, kind.getBytes(StandardCharsets.US_ASCII));
        return headers;
    }

    @Test
    void onlyTheMarkedKindsAreReadAsInstructed() {
        RecordHeaders marked = new RecordHeaders();
        marked.add(KafkaUnansweredPayments.KIND_HEADER, "instructed-ids".getBytes(StandardCharsets.US_ASCII));
        RecordHeaders other = new RecordHeaders();
        other.add(KafkaUnansweredPayments.KIND_HEADER, "something-else".getBytes(StandardCharsets.US_ASCII));

        assertThat(KafkaUnansweredPayments.holdsInstructedIds(marked)).isTrue();
        assertThat(KafkaUnansweredPayments.holdsInstructedIds(headers("instructed-payments")))
                .isTrue();
        assertThat(KafkaUnansweredPayments.holdsInstructedIds(other)).isFalse();
        assertThat(KafkaUnansweredPayments.holdsInstructedIds(new RecordHeaders()))
                .isFalse();
    }
}
