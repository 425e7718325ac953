package io.pagora.local.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.pagora.local.demo.DemoReport;
import io.pagora.local.measure.ProcessCpu;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What the bench and the demo report measure CPU with: whole process trees from /proc (a component's
 * children count, a process that does not exist counts nothing), and the per-payment arithmetic.
 */
class BenchMeasurementTest {

    private static final long TICKS_PER_SECOND = 100;

    @Test
    void aProcessTreeCountsTheCpuOfItsChildren() throws Exception {
        ProcessCpu cpu = new ProcessCpu(TICKS_PER_SECOND);
        long self = ProcessHandle.current().pid();
        Map<String, Long> tree = Map.of("this-jvm", self);
        double before = cpu.seconds(tree).get("this-jvm");
        // A child that burns CPU for about a second: only the tree walk (or the reaped child's cutime) sees it.
        Process child = new ProcessBuilder(
                        "sh", "-c", "end=$(($(date +%s) + 2)); while [ $(date +%s) -lt $end ]; do :; done")
                .start();
        double whileRunning = await("a living child's CPU is counted")
                .atMost(Duration.ofSeconds(2))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> cpu.seconds(tree).get("this-jvm"), seconds -> child.isAlive() && seconds - before > 0.3);
        assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
        double afterReaped = cpu.seconds(tree).get("this-jvm");

        assertThat(afterReaped)
                .as("a reaped child's CPU stays counted (cutime)")
                .isGreaterThanOrEqualTo(whileRunning);
    }

    @Test
    void aMissingProcessCountsNothing() {
        assertThat(new ProcessCpu(TICKS_PER_SECOND).seconds(Map.of("gone", 999_999_999L)))
                .containsEntry("gone", 0.0);
    }

    @Test
    void componentsAreNamePidPairs() {
        assertThat(ProcessCpu.components("payment-api=12,postgresql=34"))
                .containsExactly(Map.entry("payment-api", 12L), Map.entry("postgresql", 34L));
        assertThatThrownBy(() -> ProcessCpu.components("payment-api:12")).hasMessageContaining("name=pid");
    }

    @Test
    void cpuTableDividesEachComponentsCpuByTheSettledPayments() {
        Map<String, Double> before = new LinkedHashMap<>(Map.of("payment-api", 10.0));
        before.put("kafka", 5.0);
        Map<String, Double> after = new LinkedHashMap<>();
        after.put("payment-api", 12.0); // 2 CPU-s over 1,000 payments: 2,000 µs each
        after.put("kafka", 5.5); // 0.5 CPU-s: 500 µs each

        List<String> table = DemoReport.cpuTable(before, after, 1_000);

        assertThat(table)
                .anySatisfy(line -> assertThat(line).contains("payment-api").contains("2000.0 µs"));
        assertThat(table).anySatisfy(line -> assertThat(line).contains("kafka").contains("500.0 µs"));
        assertThat(table)
                .anySatisfy(line -> assertThat(line).contains("PLATFORM TOTAL").contains("2500.0 µs"));
    }
}
