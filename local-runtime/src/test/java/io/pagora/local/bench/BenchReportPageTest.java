package io.pagora.local.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.local.checks.InvariantChecks;
import io.pagora.local.demo.DemoReport;
import io.pagora.local.measure.DiskUsage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a bench run leaves to look at: its second-by-second series, the disk its stores grew by per payment, and
 * report.html, which holds the run's own figures and opens offline.
 */
class BenchReportPageTest {

    private static final long SECOND = 1_000_000_000L;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path directory;

    @Test
    void eachSecondIsTheDifferenceOfTheTotalsAndItsCallsPercentiles() {
        Timeline timeline = new Timeline(1_000 * SECOND, 3);
        timeline.sample(0, 0, 0, 0, Map.of("payment-api", 10.0));
        for (int ms = 1; ms <= 100; ms++) {
            timeline.latency(1_000 * SECOND + 500_000_000L, ms * 1_000_000L); // scheduled in second 0: 1..100 ms
        }
        timeline.latency(1_001 * SECOND + 1, 7_000_000L); // second 1: one call of 7 ms
        timeline.latency(999 * SECOND, 1); // before the origin: not kept
        timeline.latency(1_010 * SECOND, 1); // past the last second: not kept
        timeline.sample(1, 1_000, 900, 100, Map.of("payment-api", 10.5));
        timeline.sample(2, 2_500, 2_400, 100, Map.of("payment-api", 11.5));
        timeline.sample(3, 2_500, 2_500, 0, Map.of("payment-api", 11.5));

        Map<String, Object> json = timeline.json(1, 3, 1_200);

        assertThat(json.get("t_s")).isEqualTo(List.of(1, 2, 3));
        assertThat(json.get("accepted_per_s")).isEqualTo(List.of(1_000.0, 1_500.0, 0.0));
        assertThat(json.get("final_per_s")).isEqualTo(List.of(900.0, 1_500.0, 100.0));
        assertThat(json.get("backlog")).isEqualTo(List.of(100L, 100L, 0L));
        assertThat(json.get("accept_p50_ms"))
                .as("second 0's calls end at t=1; none was scheduled in second 2")
                .isEqualTo(List.of(50.0, 7.0, -1.0));
        assertThat(json.get("accept_p99_ms")).isEqualTo(List.of(99.0, 7.0, -1.0));
        assertThat(json.get("cpu_cores")).isEqualTo(Map.of("payment-api", List.of(0.5, 1.0, 0.0)));
        assertThat(json)
                .containsEntry("window_from_s", 1)
                .containsEntry("window_to_s", 3)
                .containsEntry("offered_per_s", 1_200.0);
    }

    @Test
    void diskGrowthIsPerPaymentAndTheTotalAtRestLeavesTheWalOut() throws Exception {
        DiskUsage.Snapshot before = new DiskUsage.Snapshot(
                Map.of("kafka", 1_000L, DiskUsage.POSTGRESQL_TABLES, 5_000L, DiskUsage.POSTGRESQL_WAL, 0L));
        Map<String, Long> grown = new LinkedHashMap<>();
        grown.put("kafka", 3_000L);
        grown.put(DiskUsage.POSTGRESQL_TABLES, 9_000L);
        grown.put(DiskUsage.POSTGRESQL_WAL, 8_000L);
        grown.put("tigerbeetle", 4_096L); // not read at the start: no figure rather than a guess

        Map<String, Double> perPayment = new DiskUsage.Snapshot(grown).bytesPerPaymentSince(before, 2);

        assertThat(perPayment)
                .containsExactly(
                        Map.entry("kafka", 1_000.0),
                        Map.entry(DiskUsage.POSTGRESQL_TABLES, 2_000.0),
                        Map.entry(DiskUsage.POSTGRESQL_WAL, 4_000.0),
                        Map.entry("at_rest_total", 3_000.0));
        assertThat(new DiskUsage.Snapshot(grown).bytesPerPaymentSince(before, 0))
                .as("no payment, no figure")
                .isEmpty();

        Path store = Files.createDirectory(directory.resolve("store"));
        Files.write(store.resolve("segment"), new byte[256 * 1024]);
        assertThat(DiskUsage.allocatedBytes(store))
                .as("du: the blocks the files use")
                .isGreaterThanOrEqualTo(256 * 1024);
        assertThat(DiskUsage.allocatedBytes(directory.resolve("missing"))).isEqualTo(-1);
        assertThat(DiskUsage.directories("tigerbeetle=/a,kafka=/b"))
                .containsExactly(Map.entry("tigerbeetle", Path.of("/a")), Map.entry("kafka", Path.of("/b")));
    }

    @Test
    void theReportHoldsTheRunsFiguresAndSeriesAndFetchesNothing() throws Exception {
        JsonNode result = JSON.readTree(RESULT);
        Path html = directory.resolve("report.html");

        BenchHtml.write(html, result);

        String page = Files.readString(html, StandardCharsets.UTF_8);
        assertThat(page)
                .contains("<title>Pagora bench: tigerbeetle, bulk at 12,000/s</title>")
                .contains("INVALID — backlog growing &lt;fast&gt;")
                .contains("invariants PASS")
                .contains("<td>settled /s</td><td>8,843</td>")
                .contains("<td>platform CPU µs per settled payment</td><td>190.9</td>")
                .contains("CPU µs per settled payment: postgresql</td><td>67.5</td>")
                .contains("disk bytes per payment: at_rest_total</td><td>2,345.6</td>")
                .contains("PostgreSQL checkpoint forced in the window: took_s</td><td>2.3</td>")
                .contains("GET /payments/{id} during the window: p99_ms</td><td>31.4</td>")
                .contains("GET /accounts/{id}/statement during the window: p99_ms</td><td>48.5</td>");
        assertThat(page)
                .as("uPlot is inlined, not fetched")
                .contains("uPlot")
                .doesNotContain("<script src")
                .doesNotContain("<link ")
                .doesNotContainPattern("(src|href)=\"https?:");
        JsonNode embedded = JSON.readTree(embeddedResults(page)).get(0);
        assertThat(embedded).as("the run's result.json, whole, for the charts").isEqualTo(result);
        assertThat(page).as("a string cannot end the script early").doesNotContain("</fast>");
    }

    @Test
    void theComparisonPageHoldsBothLedgers() throws Exception {
        JsonNode tigerBeetle = JSON.readTree(RESULT);
        JsonNode postgresql = JSON.readTree(
                RESULT.replace("\"tigerbeetle\"", "\"postgresql\"").replace("8843", "2100"));
        Path html = directory.resolve("compare.html");

        BenchHtml.writeComparison(html, tigerBeetle, postgresql);

        String page = Files.readString(html, StandardCharsets.UTF_8);
        assertThat(page)
                .contains("<th>tigerbeetle</th><th>postgresql</th>")
                .contains("<td>settled /s</td><td>8,843</td><td>2,100</td>")
                .contains("id=\"charts-0\"")
                .contains("id=\"charts-1\"");
        assertThat(JSON.readTree(embeddedResults(page))).hasSize(2);
    }

    @Test
    void theDemosPageHoldsItsChecksAndItsReport() throws Exception {
        DemoReport.Result result = new DemoReport.Result(
                List.of("Accepted: 14,897"),
                List.of(
                        new InvariantChecks.Verdict(
                                "Σdebits = Σcredits", true, "posted and pending balance", List.of()),
                        new InvariantChecks.Verdict(
                                "read model = ledger", false, "3 payments <differ>", List.of("x"))));
        Path html = directory.resolve("demo.html");

        BenchHtml.writeDemo(html, result, List.of("Accepted: 14,897", "judged accept p99 70.7 ms"));

        String page = Files.readString(html, StandardCharsets.UTF_8);
        assertThat(page)
                .contains("<p class=\"invalid\">FAIL</p>")
                .contains("<td>Σdebits = Σcredits</td><td class=\"valid\">PASS")
                .contains("read model = ledger</td><td class=\"invalid\">FAIL</td><td>3 payments &lt;differ&gt;</td>")
                .contains("judged accept p99 70.7 ms")
                .doesNotContainPattern("(src|href)=\"https?:");
    }

    private static String embeddedResults(String page) {
        Matcher script = Pattern.compile(
                        "<script id=\"results\" type=\"application/json\">(.*?)</script>", Pattern.DOTALL)
                .matcher(page);
        assertThat(script.find()).isTrue();
        return script.group(1).replace("<\\/", "</");
    }

    private static final String RESULT = """
            {"ledger":"tigerbeetle","mode":"bulk","offered_per_s":12000.0,"accepted_per_s":11435.0,"settled_per_s":8843,
             "accept_p50_ms":83.7,"accept_p99_ms":681.0,"accept_to_settled_p50_ms":18781.5,"accept_to_settled_p99_ms":49495.4,
             "read_model_lag_p99_ms":6500.0,"cpu_us_per_payment":190.9,
             "cpu_us_per_payment_by_component":{"payment-api":44.0,"postgresql":67.5},
             "bank_simulator_cpu_us_per_payment":21.2,"load_generator_cpu_share":0.085,"valid":false,"invariants_pass":true,
             "gate_failures":["backlog growing <fast></fast>"],"window_s":120.0,"backlog_at_window_end":435079,
             "disk_bytes_per_payment":{"kafka":1200.5,"at_rest_total":2345.6},"postgresql_checkpoint":{"at_s":60,"took_s":2.3},
             "query_payment":{"n":240,"failed":0,"p50_ms":7.0,"p99_ms":31.4,"max_ms":40.2},
             "query_statement":{"n":240,"failed":0,"p50_ms":6.5,"p99_ms":48.5,"max_ms":52.0},
             "timeline":{"t_s":[1,2],"window_from_s":1,"window_to_s":2,"offered_per_s":12000.0,
               "accepted_per_s":[11000.0,12000.0],"final_per_s":[9000.0,8800.0],"backlog":[2000,5200],
               "accept_p50_ms":[80.0,-1.0],"accept_p99_ms":[600.0,-1.0],"cpu_cores":{"payment-api":[0.4,0.5]}}}
            """;
}
