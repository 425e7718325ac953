package io.pagora.local.demo;

import io.pagora.ledger.port.Ledger;
import io.pagora.local.bench.BenchHtml;
import io.pagora.local.checks.DirectoryCheck;
import io.pagora.local.checks.HoldsCheck;
import io.pagora.local.checks.InvariantChecks;
import io.pagora.local.checks.LedgerAccountSet;
import io.pagora.local.measure.CpuSnapshot;
import io.pagora.local.readside.OutcomeLog;
import io.pagora.local.readside.ReadModel;
import io.pagora.local.readside.ReadSide;
import io.pagora.local.runfiles.AcceptedPayments;
import io.pagora.local.runfiles.DemoAccounts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The demo report: what happened to the payments, how fast, and the money invariants, each PASS or
 * FAIL. Exits 1 when any check fails, so {@code infra/local/pagora demo} fails with it. The invariants judge
 * the ledger's whole account set ({@link LedgerAccountSet}), funded as the accounts file says: the demo made
 * every funding, so money on an account it did not fund is unexplained ({@code verify} reads later fundings
 * from the ledger instead).
 *
 * <pre>
 *   java -jar local-runtime.jar report
 *       --accounts=var/demo/accounts.tsv        banks, customers and their fundings (see DemoAccounts)
 *       --accepted=FILE[,FILE...]               what k6 was answered, each run's log (see AcceptedPayments)
 *       [--k6-summary=var/demo/k6-summary.json] k6 --summary-export or handleSummary JSON
 *       [--jdbc-url=jdbc:postgresql://127.0.0.1:5432/pagora] [--db-user=pagora] [--db-password=pagora]
 *       [--reporting-schema=reporting] [--bootstrap-servers=127.0.0.1:9092]   (the outcomes topic)
 *       [--ledger-backend=postgresql|tigerbeetle] [--tigerbeetle-addresses=127.0.0.1:3000] [--tigerbeetle-cluster-id=0]
 *       [--cpu-before=FILE --cpu-after=FILE --settled-before=N]   CPU snapshots around the measured run
 * </pre>
 */
public final class DemoReport {

    private DemoReport() {}

    /** Where the report reads from. {@code k6Summary} may be null. */
    public record Inputs(Path accounts, List<Path> accepted, Path k6Summary, String reportingSchema) {}

    /** payment-api's schema, where the key directory lives (in the platform's one database). */
    static final String DIRECTORY_SCHEMA = "payment_api";

    public record Result(List<String> lines, List<InvariantChecks.Verdict> verdicts) {
        public boolean passed() {
            return verdicts.stream().allMatch(InvariantChecks.Verdict::passed);
        }
    }

    public static void main(String[] args) throws Exception {
        DemoReportOptions options = DemoReportOptions.parse(args);

        Result result;
        try (ReadSide platform = ReadSide.open(options.readSide(), "demo-report")) {
            result = run(
                    options.inputs(),
                    platform.dataSource(),
                    platform.ledger(),
                    () -> OutcomeLog.read(options.bootstrap()));
        }
        List<String> lines = new ArrayList<>(result.lines());
        if (!options.cpuBefore().isBlank() && !options.cpuAfter().isBlank()) {
            int at = lines.indexOf("Invariant checks:");
            lines.addAll(
                    at < 0 ? lines.size() : at,
                    cpuTable(
                            CpuSnapshot.read(Path.of(options.cpuBefore())),
                            CpuSnapshot.read(Path.of(options.cpuAfter())),
                            settledCount(result) - options.settledBefore()));
        }
        lines.forEach(System.out::println);
        if (!options.html().isBlank()) {
            BenchHtml.writeDemo(Path.of(options.html()), result, lines);
        }
        System.exit(result.passed() ? 0 : 1);
    }

    /** {@code outcomes}: the outcomes topic, read after the read model. */
    public static Result run(Inputs inputs, DataSource readModelDatabase, Ledger ledger, Supplier<OutcomeLog> outcomes)
            throws Exception {
        DemoAccounts accounts = DemoAccounts.read(inputs.accounts());
        AcceptedPayments accepted = AcceptedPayments.read(inputs.accepted());
        List<ReadModel.Row> rows = ReadModel.load(readModelDatabase, inputs.reportingSchema());
        List<InvariantChecks.Verdict> verdicts =
                new ArrayList<>(new InvariantChecks(ledger, accounts, rows, outcomes.get(), accepted).runAll());
        verdicts.add(DirectoryCheck.run(readModelDatabase, DIRECTORY_SCHEMA, ledger));
        verdicts.add(HoldsCheck.run(readModelDatabase, DIRECTORY_SCHEMA, ledger, Instant.now()));

        List<String> out = new ArrayList<>();
        out.add("==================== Pagora demo report ====================");
        out.add("ledger backend: " + ledger.backendName() + "   read model: " + inputs.reportingSchema() + ".payments ("
                + rows.size() + " payments)");
        out.add(String.format(
                "seeded: %d banks, %d customers",
                accounts.reserveFundings().size(), accounts.customerFundings().size()));
        out.add(accepted.summary());
        out.add("");
        out.add("Outcomes (read model):");
        Map<String, Long> byStatus = rows.stream()
                .collect(Collectors.groupingBy(ReadModel.Row::status, TreeMap::new, Collectors.counting()));
        for (String status : List.of(ReadModel.SETTLED, ReadModel.REJECTED, ReadModel.EXPIRED, ReadModel.ACCEPTED)) {
            String label = ReadModel.ACCEPTED.equals(status) ? "ACCEPTED (not final)" : status;
            String detail = "";
            if (ReadModel.REJECTED.equals(status)) {
                Map<String, Long> reasons = rows.stream()
                        .filter(r -> ReadModel.REJECTED.equals(r.status()))
                        .collect(Collectors.groupingBy(
                                r -> Objects.requireNonNullElse(r.reason(), "?"), TreeMap::new, Collectors.counting()));
                detail = reasons.isEmpty() ? "" : "  " + reasons;
            }
            out.add(String.format("  %-21s %7d%s", label, byStatus.getOrDefault(status, 0L), detail));
        }
        byStatus.keySet().stream()
                .filter(s -> !List.of(ReadModel.SETTLED, ReadModel.REJECTED, ReadModel.EXPIRED, ReadModel.ACCEPTED)
                        .contains(s))
                .forEach(s -> out.add(String.format("  %-21s %7d", s, byStatus.get(s))));
        out.add("");
        out.add("Throughput:");
        out.addAll(throughput(rows));
        out.add("");
        out.add("Latency:");
        out.addAll(acceptLatency(inputs.k6Summary()));
        out.add(latencyLine(
                "accept→settled (final_at − accepted_at, SETTLED)",
                rows.stream().filter(r -> ReadModel.SETTLED.equals(r.status())).toList()));
        out.add(latencyLine(
                "accept→final (all final states)",
                rows.stream().filter(ReadModel.Row::isFinal).toList()));
        out.add("");
        out.addAll(verdictLines(verdicts));
        out.add("=============================================================");
        return new Result(out, verdicts);
    }

    /** "Invariant checks:", each verdict with its first problems, and the RESULT line. */
    static List<String> verdictLines(List<InvariantChecks.Verdict> verdicts) {
        List<String> out = new ArrayList<>();
        out.add("Invariant checks:");
        for (InvariantChecks.Verdict verdict : verdicts) {
            out.add(String.format(
                    "  [%s] %s: %s", verdict.passed() ? "PASS" : "FAIL", verdict.name(), verdict.summary()));
            verdict.problems().forEach(problem -> out.add("         - " + problem));
        }
        long failed = verdicts.stream().filter(v -> !v.passed()).count();
        out.add("");
        out.add(
                failed == 0
                        ? "RESULT: PASS (all " + verdicts.size() + " checks hold)"
                        : "RESULT: FAIL (" + failed + " of " + verdicts.size() + " checks failed)");
        return out;
    }

    /** The SETTLED count the report's outcome table printed (the read model's, at the end). */
    private static long settledCount(Result result) {
        for (String line : result.lines()) {
            String trimmed = line.strip();
            if (trimmed.startsWith(ReadModel.SETTLED + " ")) {
                return Long.parseLong(
                        trimmed.substring(ReadModel.SETTLED.length()).strip());
            }
        }
        return 0;
    }

    /** CPU per settled payment of each component over the measured run (two {@link CpuSnapshot}s). */
    public static List<String> cpuTable(Map<String, Double> before, Map<String, Double> after, long settled) {
        List<String> out = new ArrayList<>();
        out.add(String.format(
                Locale.ROOT, "CPU per settled payment (measured run, /proc; %d payments settled in it):", settled));
        double total = 0;
        for (Map.Entry<String, Double> entry : after.entrySet()) {
            double seconds = entry.getValue() - before.getOrDefault(entry.getKey(), 0.0);
            double us = seconds * 1e6 / Math.max(1, settled);
            total += us;
            out.add(String.format(Locale.ROOT, "  %-20s %8.1f µs  (%.1f CPU-s)", entry.getKey(), us, seconds));
        }
        out.add(String.format(
                Locale.ROOT,
                "  %-20s %8.1f µs  (k6 excluded; includes the wait for the last outcomes)",
                "PLATFORM TOTAL",
                total));
        out.add("  (at a demo's low rate, what every process spends idle — polls, metrics, timers — dominates;"
                + " `infra/local/pagora bench` measures the cost per payment under load)");
        out.add("");
        return out;
    }

    private static List<String> throughput(List<ReadModel.Row> rows) {
        List<String> out = new ArrayList<>();
        if (rows.isEmpty()) {
            out.add("  no payments");
            return out;
        }
        Instant firstAccepted = rows.stream()
                .map(ReadModel.Row::acceptedAt)
                .min(Comparator.naturalOrder())
                .orElseThrow();
        Instant lastAccepted = rows.stream()
                .map(ReadModel.Row::acceptedAt)
                .max(Comparator.naturalOrder())
                .orElseThrow();
        out.add(String.format(
                "  accepted/s  %8.1f   (%d accepted between the first and last accepted_at: %.3f s)",
                rate(rows.size(), firstAccepted, lastAccepted), rows.size(), seconds(firstAccepted, lastAccepted)));
        List<ReadModel.Row> settled =
                rows.stream().filter(r -> ReadModel.SETTLED.equals(r.status())).toList();
        if (!settled.isEmpty()) {
            Instant lastSettled = settled.stream()
                    .map(ReadModel.Row::finalAt)
                    .max(Comparator.naturalOrder())
                    .orElseThrow();
            out.add(String.format(
                    "  settled/s   %8.1f   (%d settled between the first accepted_at and the last SETTLED final_at: %.3f s)",
                    rate(settled.size(), firstAccepted, lastSettled),
                    settled.size(),
                    seconds(firstAccepted, lastSettled)));
        }
        List<ReadModel.Row> finals =
                rows.stream().filter(ReadModel.Row::isFinal).toList();
        if (!finals.isEmpty()) {
            Instant lastFinal = finals.stream()
                    .map(ReadModel.Row::finalAt)
                    .max(Comparator.naturalOrder())
                    .orElseThrow();
            out.add(String.format(
                    "  final/s     %8.1f   (%d final states between the first accepted_at and the last final_at: %.3f s)",
                    rate(finals.size(), firstAccepted, lastFinal), finals.size(), seconds(firstAccepted, lastFinal)));
        }
        return out;
    }

    private static double rate(long count, Instant from, Instant to) {
        double seconds = seconds(from, to);
        return seconds <= 0 ? count : count / seconds;
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e9;
    }

    private static String latencyLine(String label, List<ReadModel.Row> rows) {
        double[] millis = rows.stream()
                .filter(r -> r.finalAt() != null)
                .mapToDouble(r -> Duration.between(r.acceptedAt(), r.finalAt()).toNanos() / 1e6)
                .sorted()
                .toArray();
        if (millis.length == 0) {
            return String.format("  %-52s no data", label);
        }
        return String.format(
                Locale.ROOT,
                "  %-52s p50 %8.1f ms  p95 %8.1f ms  p99 %8.1f ms  (n=%d)",
                label,
                percentile(millis, 50),
                percentile(millis, 95),
                percentile(millis, 99),
                millis.length);
    }

    /** Nearest-rank percentile of sorted values. */
    public static double percentile(double[] sorted, double percent) {
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /**
     * The judged run's figures when k6 warmed up first (k6/lib/scenarios.js judged(): the run's scenario, {@code load},
     * apart from its {@code warmup}), else the whole run's.
     */
    private static final String JUDGED = "{scenario:load}";

    /** The accept latency as k6 measured it: its own Trend of POST /payments answers, else all requests. */
    static List<String> acceptLatency(Path summaryFile) throws Exception {
        List<String> out = new ArrayList<>();
        if (summaryFile == null || !Files.exists(summaryFile)) {
            out.add(String.format(
                    "  %-52s no k6 summary%s",
                    "accept (POST /payments → 2xx, k6)", summaryFile == null ? "" : " at " + summaryFile));
            return out;
        }
        JsonNode metrics =
                JsonMapper.builder().build().readTree(summaryFile.toFile()).path("metrics");
        for (String name : List.of("accept_latency" + JUDGED, "accept_latency", "http_req_duration")) {
            JsonNode metric = metrics.path(name);
            JsonNode values = metric.has("values") ? metric.path("values") : metric;
            if (values.has("p(50)") || values.has("med")) {
                double p50 = values.has("p(50)")
                        ? values.path("p(50)").asDouble()
                        : values.path("med").asDouble();
                String label = name.startsWith("accept_latency")
                        ? "accept (POST /payments → 202, k6)"
                        : "accept (every k6 HTTP request)";
                out.add(String.format(
                        Locale.ROOT,
                        "  %-52s p50 %8.1f ms  p95 %8.1f ms  p99 %8.1f ms%s",
                        label,
                        p50,
                        values.path("p(95)").asDouble(Double.NaN),
                        values.path("p(99)").asDouble(Double.NaN),
                        values.has("count") ? "  (n=" + values.path("count").asLong() + ")" : ""));
                break;
            }
        }
        JsonNode dropped = metrics.has("dropped_iterations" + JUDGED)
                ? metrics.path("dropped_iterations" + JUDGED)
                : metrics.path("dropped_iterations");
        JsonNode droppedValues = dropped.has("values") ? dropped.path("values") : dropped;
        if (droppedValues.has("count") && droppedValues.path("count").asLong() > 0) {
            out.add("  note: k6 dropped " + droppedValues.path("count").asLong()
                    + " iterations (arrival rate above what its VUs could keep up with)");
        }
        return out;
    }
}
