package io.pagora.reporting.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentRequested;
import io.pagora.events.PaymentSettled;
import io.pagora.events.ReturnOf;
import io.pagora.events.ReturnReason;
import io.pagora.reporting.ReportingProperties;
import io.pagora.reporting.testsupport.Payments;
import io.pagora.reporting.testsupport.Payments.Payment;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

class ProjectionWindowTest {

    @Test
    void aWindowIsTheFetchWaitAndAWholePollOfRecordsIsItsBytes() {
        Properties properties = ProjectionWindow.consumerProperties(Duration.ofMillis(1_500), 60_000);

        assertThat(properties.getProperty(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG))
                .isEqualTo("1500");
        assertThat(properties.getProperty(ConsumerConfig.MAX_POLL_RECORDS_CONFIG))
                .isEqualTo("60000");
        long bytes = 60_000L * ProjectionWindow.FETCH_BYTES_PER_RECORD;
        assertThat(properties.getProperty(ConsumerConfig.FETCH_MIN_BYTES_CONFIG))
                .as("time, not bytes, releases a fetch while a window's records fit one poll")
                .isEqualTo(String.valueOf(bytes));
        assertThat(properties.getProperty(ConsumerConfig.FETCH_MAX_BYTES_CONFIG))
                .isEqualTo(String.valueOf(bytes));
        assertThat(properties.getProperty(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG))
                .isEqualTo(String.valueOf(bytes));
    }

    @Test
    void theLargestPaymentEventFitsTheBytesBudgetedPerRecordUncompressed() {
        Payment payment = Payments.any();
        // payment-api's longest description (140 characters), each two bytes in UTF-8, and a return's link.
        String description = "ç".repeat(140);
        PaymentRequested requested = new PaymentRequested(
                payment.paymentId(),
                payment.payer(),
                payment.payee(),
                Long.MAX_VALUE,
                "BRL",
                description,
                "E" + "9".repeat(31),
                payment.acceptedAt(),
                new ReturnOf(payment.paymentId(), Long.MAX_VALUE, ReturnReason.MD06));
        PaymentSettled settled = payment.settled();

        assertThat(PaymentEventCodec.encode(requested).length)
                .isLessThanOrEqualTo(ProjectionWindow.FETCH_BYTES_PER_RECORD);
        assertThat(PaymentEventCodec.encode(settled).length)
                .isLessThanOrEqualTo(ProjectionWindow.FETCH_BYTES_PER_RECORD);
    }

    @Test
    void theWindowAndItsRecordsAreBounded() {
        assertThatThrownBy(() -> projection(Duration.ofSeconds(6), 60_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pagora.reporting.projection.window");
        assertThatThrownBy(() -> projection(Duration.ofMillis(5), 60_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pagora.reporting.projection.window");
        assertThatThrownBy(() -> projection(Duration.ofSeconds(1), ReportingProperties.WINDOW_RECORDS_MAX + 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("window-records-max");
        assertThat(projection(ReportingProperties.WINDOW_MAX, ReportingProperties.WINDOW_RECORDS_MAX)
                        .window())
                .isEqualTo(Duration.ofSeconds(5));
    }

    private static ReportingProperties.Projection projection(Duration window, int recordsMax) {
        return new ReportingProperties.Projection(
                ReportingProperties.PROJECTION_GROUP,
                true,
                2,
                3,
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                window,
                recordsMax,
                Duration.ofSeconds(3));
    }
}
