package io.pagora.local.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.pagora.local.load.LoadGenerator;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The figure the project steers by: the platform's CPU per settled payment over TigerBeetle's, and each component's
 * share of the platform's CPU, as result.json, the printed table and the pages say them; none on the PostgreSQL
 * ledger, and none (not Infinity) when TigerBeetle spent no CPU measured.
 */
class BenchRatioTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final long SETTLED = 10_000;

    @TempDir
    Path directory;

    /** 100 s of a window: payment-api 180 µs, PostgreSQL 120, Kafka 80, TigerBeetle 60 per payment; the banks 40. */
    private static Map<String, Double> cpuSeconds(double tigerBeetleSeconds) {
        Map<String, Double> seconds = new LinkedHashMap<>();
        seconds.put("payment-api", 1.8);
        seconds.put("postgresql", 1.2);
        seconds.put("kafka", 0.8);
        seconds.put("tigerbeetle", tigerBeetleSeconds);
        seconds.put(Bench.BANK_SIMULATOR, 0.4);
        return seconds;
    }

    @Test
    void thePlatformIsEveryComponentButTheBanksAndTheRatioIsItOverTigerBeetle() {
        PlatformCpu cpu = PlatformCpu.of("tigerbeetle", cpuSeconds(0.6), SETTLED);

        assertThat(cpu.usByComponent())
                .containsExactly(
                        Map.entry("payment-api", 180.0),
                        Map.entry("postgresql", 120.0),
                        Map.entry("kafka", 80.0),
                        Map.entry("tigerbeetle", 60.0));
        assertThat(cpu.platformUs()).isCloseTo(440.0, within(1e-9));
        assertThat(cpu.bankSimulatorUs()).as("the banks' side, apart").isCloseTo(40.0, within(1e-9));
        assertThat(cpu.ledgerUs()).hasValueCloseTo(60.0, within(1e-9));
        assertThat(cpu.platformToLedgerRatio()).hasValueCloseTo(440.0 / 60.0, within(1e-9));
        assertThat(cpu.sharePercentByComponent().get("postgresql")).isCloseTo(100 * 120.0 / 440, within(1e-9));
        assertThat(cpu.sharePercentByComponent().values().stream()
                        .mapToDouble(Double::doubleValue)
                        .sum())
                .isCloseTo(100.0, within(1e-9));
        assertThat(PlatformCpu.ratioText(cpu.platformToLedgerRatio())).isEqualTo("7.33×");
    }

    @Test
    void everyTigerBeetleReplicaIsTheLedgers() {
        Map<String, Double> seconds = cpuSeconds(0.2);
        seconds.put("tigerbeetle-2", 0.2);
        seconds.put("tigerbeetle-3", 0.2);

        PlatformCpu cpu = PlatformCpu.of("tigerbeetle", seconds, SETTLED);

        assertThat(cpu.ledgerUs()).hasValueCloseTo(60.0, within(1e-9));
        assertThat(cpu.platformToLedgerRatio()).hasValueCloseTo(440.0 / 60.0, within(1e-9));
        assertThat(PlatformCpu.isTigerBeetle("tigerbeetle-12")).isTrue();
        assertThat(PlatformCpu.isTigerBeetle("tigerbeetle-x")).isFalse();
        assertThat(PlatformCpu.isTigerBeetle("payment-api")).isFalse();
    }

    @Test
    void resultJsonHoldsTheRatioBesideTheMicrosecondsAndTheShares() throws Exception {
        JsonNode json = json("tigerbeetle", cpuSeconds(0.6));

        assertThat(json.path("cpu_us_per_payment").asDouble()).isEqualTo(440.0);
        assertThat(json.path("ledger_cpu_us_per_payment").asDouble()).isEqualTo(60.0);
        assertThat(json.path("platform_to_ledger_cpu_ratio").asDouble()).isEqualTo(7.33);
        assertThat(json.path("cpu_us_per_payment_by_component").has(Bench.BANK_SIMULATOR))
                .isFalse();
        assertThat(json.path("bank_simulator_cpu_us_per_payment").asDouble()).isEqualTo(40.0);
        assertThat(json.path("cpu_share_by_component").path("payment-api").asDouble())
                .isEqualTo(40.9);
        assertThat(json.path("cpu_share_by_component").path("postgresql").asDouble())
                .isEqualTo(27.3);
        assertThat(json.path("cpu_share_by_component").path("tigerbeetle").asDouble())
                .isEqualTo(13.6);
    }

    @Test
    void onThePostgresqlLedgerThereIsNoRatioAndJsonSaysNull() throws Exception {
        Map<String, Double> seconds = cpuSeconds(0.6);
        seconds.remove("tigerbeetle");
        Bench.Step step = step(4000, seconds, List.of());
        BenchReport report = new BenchReport(settings("postgresql", false), step, List.of(), true);

        String written = written(report.json(List.of(step)));

        assertThat(written)
                .contains("\"ledger_cpu_us_per_payment\":null")
                .contains("\"platform_to_ledger_cpu_ratio\":null");
        assertThat(report.table(List.of(step)))
                .anySatisfy(line -> assertThat(line)
                        .contains("platform ÷ TigerBeetle")
                        .contains("–")
                        .contains("the ledger is PostgreSQL itself"));
    }

    @Test
    void tigerBeetleAtNoCpuMeasuredGivesNoRatioNotInfinity() throws Exception {
        Bench.Step step = step(4000, cpuSeconds(0.0), List.of());
        BenchReport report = new BenchReport(settings("tigerbeetle", false), step, List.of(), true);

        String written = written(report.json(List.of(step)));

        assertThat(written)
                .contains("\"ledger_cpu_us_per_payment\":0.0")
                .contains("\"platform_to_ledger_cpu_ratio\":null")
                .doesNotContain("Infinity")
                .doesNotContain("NaN");
        assertThat(report.table(List.of(step)))
                .anySatisfy(line ->
                        assertThat(line).contains("platform ÷ TigerBeetle").contains("no CPU /proc could measure"));
        assertThat(PlatformCpu.of("tigerbeetle", Map.of("tigerbeetle", 0.0), SETTLED)
                        .sharePercentByComponent())
                .as("a platform that spent nothing has no shares, not NaN")
                .isEmpty();
    }

    @Test
    void theTableSaysTheRatioAndEachComponentsShare() {
        Bench.Step step = step(4000, cpuSeconds(0.6), List.of());
        List<String> table =
                new BenchReport(settings("tigerbeetle", false), step, List.of(), true).table(List.of(step));

        assertThat(table)
                .anySatisfy(line -> assertThat(line).contains("PLATFORM TOTAL").contains("440.0 µs"))
                .anySatisfy(line -> assertThat(line)
                        .isEqualTo("    platform ÷ TigerBeetle  7.33×   (the platform's 440.0 µs over TigerBeetle's own"
                                + " 60.0)"))
                .anySatisfy(line -> assertThat(line)
                        .contains("postgresql")
                        .contains("120.0 µs")
                        .contains("27.3 % of the platform"))
                .noneSatisfy(line -> assertThat(line).contains("find-max"));
    }

    @Test
    void findMaxReportsEveryStepsRatioAndTheHighestThatHeld() throws Exception {
        Bench.Step held = step(4000, cpuSeconds(0.6), List.of());
        Bench.Step broke = step(5000, cpuSeconds(0.5), List.of("backlog growing"));
        BenchReport report = new BenchReport(settings("tigerbeetle", true), held, List.of(), true);

        JsonNode json = JSON.readTree(written(report.json(List.of(held, broke))));
        List<String> table = report.table(List.of(held, broke));

        assertThat(json.path("offered_per_s").asDouble()).isEqualTo(4000.0);
        assertThat(json.path("valid").asBoolean()).isTrue();
        assertThat(json.path("find_max_steps")).hasSize(2);
        assertThat(json.path("find_max_steps")
                        .get(0)
                        .path("platform_to_ledger_cpu_ratio")
                        .asDouble())
                .isEqualTo(7.33);
        assertThat(json.path("find_max_steps")
                        .get(1)
                        .path("platform_to_ledger_cpu_ratio")
                        .asDouble())
                .isEqualTo(8.6);
        assertThat(json.path("find_max_steps").get(1).path("valid").asBoolean()).isFalse();
        assertThat(table)
                .anySatisfy(line -> assertThat(line)
                        .contains("4000/s offered")
                        .contains("7.33×")
                        .endsWith("held"))
                .anySatisfy(line -> assertThat(line)
                        .contains("5000/s offered")
                        .contains("8.60×")
                        .endsWith("broke"))
                .contains("RESULT: VALID");

        Path html = directory.resolve("report.html");
        BenchHtml.write(html, json);
        assertThat(Files.readString(html, StandardCharsets.UTF_8))
                .contains("<td>platform ÷ TigerBeetle (CPU per settled payment)</td><td>7.33×</td>")
                .contains("<td>TigerBeetle CPU µs per settled payment</td><td>60</td>")
                .contains("share of the platform's CPU, %: postgresql</td><td>27.3</td>")
                .contains("Find-max: every step")
                .contains("<td>8.60×</td><td>broke — backlog growing</td>");
    }

    @Test
    void theComparisonPageHasTigerBeetlesRatioAndNoneForPostgresql() throws Exception {
        JsonNode tigerBeetle = json("tigerbeetle", cpuSeconds(0.6));
        Map<String, Double> seconds = cpuSeconds(0.6);
        seconds.remove("tigerbeetle");
        JsonNode postgresql = json("postgresql", seconds);
        Path html = directory.resolve("compare.html");

        BenchHtml.writeComparison(html, tigerBeetle, postgresql);

        assertThat(Files.readString(html, StandardCharsets.UTF_8))
                .contains("<td>platform ÷ TigerBeetle (CPU per settled payment)</td><td>7.33×</td><td>–</td>")
                .contains("<td>TigerBeetle CPU µs per settled payment</td><td>60</td><td>–</td>");
    }

    @Test
    void aStepThatSettlesLessThanTheBanksAcceptIsNotValid() {
        // Expired payments are final: the accepted rate and the backlog look held while far fewer settle.
        assertThat(Bench.gateFailures(figures(4000, 4000, 2600, 1.0)))
                .containsExactly("settled 2600/s, more than 5% below the 4000/s expected (4000/s offered, the banks set"
                        + " to accept 100%)");
        assertThat(Bench.gateFailures(figures(4000, 4000, 4040, 1.0)))
                .as("the banks' returns settle too")
                .isEmpty();
        assertThat(Bench.gateFailures(figures(4000, 4000, 3600, 0.9)))
                .as("banks set to accept 90 %")
                .isEmpty();
        assertThat(Bench.gateFailures(figures(4000, 3000, 3000, 1.0)))
                .hasSize(2)
                .anySatisfy(failure -> assertThat(failure).startsWith("accepted 3000/s"));
    }

    private static Bench.GateFigures figures(
            double rate, double acceptedPerS, double settledPerS, double bankAcceptShare) {
        return new Bench.GateFigures(rate, acceptedPerS, settledPerS, bankAcceptShare, 0, 0, 0, 0, 0, 0);
    }

    private JsonNode json(String ledger, Map<String, Double> cpuSeconds) throws Exception {
        Bench.Step step = step(4000, cpuSeconds, List.of());
        return JSON.readTree(
                written(new BenchReport(settings(ledger, false), step, List.of(), true).json(List.of(step))));
    }

    /** As Bench writes result.json. */
    private static String written(Map<String, Object> json) {
        return JSON.writeValueAsString(json);
    }

    private static Bench.Settings settings(String ledger, boolean findMax) {
        return new Bench.Settings(
                ledger, LoadGenerator.Mode.BULK, 4000, 500, 60, 100, 180, findMax, 1.25, 1.0, Map.of());
    }

    private static Bench.Step step(double offeredPerS, Map<String, Double> cpuSeconds, List<String> gateFailures) {
        return new Bench.Step(
                offeredPerS,
                offeredPerS,
                SETTLED / 100.0,
                SETTLED,
                new double[] {10, 20, 30},
                new double[] {100, 300},
                50,
                cpuSeconds,
                2.0,
                100,
                0,
                0,
                0,
                0,
                0,
                gateFailures,
                Map.of(),
                Map.of(),
                Bench.Checkpoint.taken(50, 0.5),
                Map.of());
    }
}
