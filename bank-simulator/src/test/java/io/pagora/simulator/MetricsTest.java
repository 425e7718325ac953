package io.pagora.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The names and labels Prometheus scrapes from the simulator's control port. */
class MetricsTest {

    private final Metrics metrics = new Metrics();

    @Test
    void countersAreScrapedPerBankAndLabelWithTotal() {
        metrics.count("pagora.simulator.instructions", "10001111", "decision", "ACCEPT");
        metrics.count("pagora.simulator.instructions", "10001111", "decision", "ACCEPT");
        metrics.count("pagora.simulator.instructions", "10002222", "decision", "REFUSE");
        metrics.count("pagora.simulator.duplicates", "10001111");

        assertThat(metrics.scrape())
                .contains(
                        "pagora_simulator_instructions_total{bank=\"10001111\",decision=\"ACCEPT\"} 2.0\n",
                        "pagora_simulator_instructions_total{bank=\"10002222\",decision=\"REFUSE\"} 1.0\n",
                        "pagora_simulator_duplicates_total{bank=\"10001111\"} 1.0\n",
                        "# TYPE pagora_simulator_instructions_total counter\n");
    }

    @Test
    void aLabelTheSwitchLeftOutIsReportedAsNull() {
        metrics.count("pagora.simulator.outcomes", "10001111", "role", "PAYEE", "status", null);

        assertThat(metrics.scrape())
                .contains("pagora_simulator_outcomes_total{bank=\"10001111\",role=\"PAYEE\",status=\"null\"} 1.0\n");
    }

    @Test
    void theAcceptToAnsweredLatencyIsAHistogramInSecondsWithItsBuckets() {
        metrics.observe("pagora.simulator.accept.to.answered", "10001111", Duration.ofMillis(30));
        metrics.observe("pagora.simulator.accept.to.answered", "10001111", Duration.ofMillis(2_000));

        assertThat(metrics.scrape())
                .contains(
                        "pagora_simulator_accept_to_answered_seconds_bucket{bank=\"10001111\",le=\"0.025\"} 0\n",
                        "pagora_simulator_accept_to_answered_seconds_bucket{bank=\"10001111\",le=\"0.05\"} 1\n",
                        "pagora_simulator_accept_to_answered_seconds_bucket{bank=\"10001111\",le=\"1.0\"} 1\n",
                        "pagora_simulator_accept_to_answered_seconds_bucket{bank=\"10001111\",le=\"2.5\"} 2\n",
                        "pagora_simulator_accept_to_answered_seconds_bucket{bank=\"10001111\",le=\"60.0\"} 2\n",
                        "pagora_simulator_accept_to_answered_seconds_bucket{bank=\"10001111\",le=\"+Inf\"} 2\n",
                        "pagora_simulator_accept_to_answered_seconds_count{bank=\"10001111\"} 2\n",
                        "pagora_simulator_accept_to_answered_seconds_sum{bank=\"10001111\"} 2.03\n");
    }

    @Test
    void aGaugeIsReadAtEveryScrape() {
        AtomicInteger waiting = new AtomicInteger(3);
        metrics.gauge("pagora.simulator.answers.waiting", "10001111", waiting::get);

        assertThat(metrics.scrape()).contains("pagora_simulator_answers_waiting{bank=\"10001111\"} 3.0\n");
        waiting.set(7);
        assertThat(metrics.scrape()).contains("pagora_simulator_answers_waiting{bank=\"10001111\"} 7.0\n");
    }
}
