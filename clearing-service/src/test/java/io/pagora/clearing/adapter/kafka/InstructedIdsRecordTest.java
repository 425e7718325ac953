package io.pagora.clearing.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.PaymentId;
import java.nio.charset.StandardCharsets;
import java.util.List;
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
