package io.pagora.clearing.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentSettled;
import io.pagora.events.Topics;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.PaymentId;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * What the outcomes follower takes from a record: the payment of its header, else of its outcome, else nothing. The
 * whole path (one instance instructs, another applies the answers) is AnswersAppliedElsewhereTest's, on real servers.
 */
class OutcomesFollowerTest {

    static final PaymentId PAYMENT = new PaymentId(new Id128(0x0195L, 0x42L << 8));
    static final PaymentId OTHER = new PaymentId(new Id128(0x0196L, 0x43L << 8));
    static final Instant AT = Instant.parse("2026-11-27T12:00:00Z");

    @Test
    void theHeaderNamesThePaymentWithoutDecodingTheOutcome() {
        ConsumerRecord<byte[], byte[]> record = record(new byte[] {'{'});
        record.headers().add(Topics.PAYMENT_ID_HEADER, PAYMENT.toString().getBytes(StandardCharsets.US_ASCII));

        assertThat(OutcomesFollower.paymentOf(record)).isEqualTo(PAYMENT);
    }

    @Test
    void aRecordWithoutTheHeaderIsDecoded() {
        ConsumerRecord<byte[], byte[]> record =
                record(PaymentEventCodec.encode(new PaymentSettled(OTHER.toString(), "a1", "b2", 100, AT, AT)));

        assertThat(OutcomesFollower.paymentOf(record)).isEqualTo(OTHER);
    }

    @Test
    void aRecordThatNamesNoPaymentIsSkipped() {
        ConsumerRecord<byte[], byte[]> garbage = record(new byte[] {1, 2, 3});
        ConsumerRecord<byte[], byte[]> badHeader = record(new byte[] {1});
        badHeader.headers().add(Topics.PAYMENT_ID_HEADER, "not-an-id".getBytes(StandardCharsets.US_ASCII));

        assertThat(OutcomesFollower.paymentOf(garbage)).isNull();
        assertThat(OutcomesFollower.paymentOf(badHeader)).isNull();
    }

    private static ConsumerRecord<byte[], byte[]> record(byte[] value) {
        return new ConsumerRecord<>(Topics.PAYMENT_OUTCOMES, 0, 0L, null, value);
    }
}
