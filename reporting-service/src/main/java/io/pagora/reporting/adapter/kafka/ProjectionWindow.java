package io.pagora.reporting.adapter.kafka;

import io.pagora.kernel.Check;
import io.pagora.reporting.ReportingProperties;
import java.time.Duration;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;

/**
 * The projection consumer's fetch settings that make one poll a time window of events: the broker holds each fetch
 * until {@code window} has passed (its minimum bytes are the bytes of a whole poll of {@code recordsMax} records, so
 * time releases it while a window's records fit one poll), and the poll hands the listener all of it, up to
 * {@code recordsMax} records (past that the rest is the next poll, at once). The consumer sends its next fetch as a
 * poll returns, so a window runs while the listener writes the one before. A poll stays one transaction whose offsets
 * are committed after it: the window adds no state to lose in a crash, only latency.
 */
public final class ProjectionWindow {

    /**
     * Fetched bytes budgeted per record: the largest payment event, uncompressed (ProjectionWindowTest; the producers
     * compress their batches besides).
     */
    static final int FETCH_BYTES_PER_RECORD = 1_024;

    private ProjectionWindow() {}

    /** The consumer properties of a window; they supersede the consumer factory's for the projection only. */
    public static Properties consumerProperties(Duration window, int recordsMax) {
        Check.that(
                window.compareTo(ReportingProperties.WINDOW_MIN) >= 0
                        && window.compareTo(ReportingProperties.WINDOW_MAX) <= 0,
                "the window is bounded: %s",
                window);
        Check.that(
                recordsMax >= 1 && recordsMax <= ReportingProperties.WINDOW_RECORDS_MAX,
                "a window's records are bounded: %d",
                recordsMax);
        int fetchBytes = recordsMax * FETCH_BYTES_PER_RECORD;
        Properties properties = new Properties();
        properties.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, String.valueOf(window.toMillis()));
        properties.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, String.valueOf(fetchBytes));
        properties.put(ConsumerConfig.FETCH_MAX_BYTES_CONFIG, String.valueOf(fetchBytes));
        // One partition may carry a whole window (a payer paying a lot): not cut at Kafka's default 1 MiB.
        properties.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, String.valueOf(fetchBytes));
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, String.valueOf(recordsMax));
        return properties;
    }
}
