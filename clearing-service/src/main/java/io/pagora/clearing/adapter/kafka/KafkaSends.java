package io.pagora.clearing.adapter.kafka;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.kafka.support.SendResult;

/** Waits, with a deadline, for a group of Kafka sends to be acknowledged (acks=all). */
final class KafkaSends {

    private KafkaSends() {}

    /** @throws PublishFailedException if any send failed or the deadline passed; the caller's batch is retried */
    static void awaitAll(List<CompletableFuture<SendResult<String, byte[]>>> sends, Duration timeout, String what) {
        if (sends.isEmpty()) {
            return;
        }
        try {
            CompletableFuture.allOf(sends.toArray(CompletableFuture[]::new))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new PublishFailedException(
                    "publishing " + sends.size() + " " + what + " failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            throw new PublishFailedException(
                    "Kafka did not acknowledge " + sends.size() + " " + what + " within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishFailedException("interrupted while publishing " + what, e);
        }
    }

    /** Kafka did not durably acknowledge a record in time. Transient: the batch is retried, never dead-lettered. */
    static final class PublishFailedException extends RuntimeException {
        PublishFailedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
