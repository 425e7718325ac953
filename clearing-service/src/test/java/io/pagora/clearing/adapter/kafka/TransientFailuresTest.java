package io.pagora.clearing.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Check;
import io.pagora.ledger.port.LedgerUnavailableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.kafka.listener.ListenerExecutionFailedException;

/**
 * Proves the error handler's classification: ledger unavailability and Kafka not acknowledging are
 * transient (retried forever, never dead-lettered) wherever they sit in the cause chain; bugs and
 * broken invariants are not (bounded retries, then the dead-letter topic).
 */
class TransientFailuresTest {

    @Test
    void infrastructureFailuresAreTransientAtAnyDepth() {
        assertThat(KafkaConfiguration.isTransient(new LedgerUnavailableException("down")))
                .isTrue();
        assertThat(KafkaConfiguration.isTransient(new ListenerExecutionFailedException(
                        "listener failed",
                        new IllegalStateException("wrapped", new LedgerUnavailableException("down")))))
                .isTrue();
        assertThat(KafkaConfiguration.isTransient(new KafkaSends.PublishFailedException("no ack", null)))
                .isTrue();
        assertThat(KafkaConfiguration.isTransient(new RuntimeException(new TimeoutException("metadata"))))
                .isTrue();
        assertThat(KafkaConfiguration.isTransient(new ExpiryDeadlines.ShuttingDown("stopping")))
                .isTrue();
    }

    @Test
    void bugsAreNotTransient() {
        assertThat(KafkaConfiguration.isTransient(new IllegalStateException("bug")))
                .isFalse();
        assertThat(KafkaConfiguration.isTransient(new Check.InvariantViolation("broken")))
                .isFalse();
        assertThat(KafkaConfiguration.isTransient(
                        new ListenerExecutionFailedException("listener failed", new NullPointerException())))
                .isFalse();
    }
}
