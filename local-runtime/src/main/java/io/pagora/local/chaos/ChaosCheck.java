package io.pagora.local.chaos;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Ledger;
import io.pagora.local.checks.HoldsCheck;
import io.pagora.local.checks.InvariantChecks;
import io.pagora.local.readside.OutcomeLog;
import io.pagora.local.readside.Quiescence;
import io.pagora.local.readside.ReadModel;
import io.pagora.local.readside.ReadSide;
import io.pagora.local.runfiles.AcceptedPayments;
import io.pagora.local.runfiles.DemoAccounts;
import io.pagora.local.tls.LocalTls;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.sql.DataSource;

/**
 * The measuring side of {@code infra/local/pagora chaos}: started by the launcher the moment a scenario's
 * fault ends (the killed service is back, the ledger thawed, ...), while the load generator still runs.
 *
 * <ol>
 *   <li>takes the payments the load generator had been told were accepted by then and waits until every
 *       one is final in the read model: that wait is the recovery time;</li>
 *   <li>waits for the load to end, then (bounded) for every payment accepted in the scenario to be final;</li>
 *   <li>counts accepted / final / lost / duplicated (two distinct final states on the outcomes topic), runs the demo report's four money checks over everything the platform did since
 *       it was seeded (every scenario's answers), and prints one summary line. Exits 1 when it fails.</li>
 * </ol>
 *
 * <pre>
 *   java -jar local-runtime.jar chaos-check --scenario=kill-clearing --answers-dir=var/chaos/run
 *       --accounts=var/demo/accounts.tsv --fault-start-epoch-ms=... --fault-end-epoch-ms=... --load-done-file=var/chaos/run/kill-clearing.done
 *       --offered-payments=N   (what the load generator offered outside the fault: see ChaosSummary)
 *       [--final-wait-seconds=180] [--load-wait-seconds=600] [--bootstrap-servers=127.0.0.1:9092]
 *       [--ledger-backend=...] [--tigerbeetle-addresses=...] [--jdbc-url=...] [--db-user=...] [--db-password=...]
 *       [--planted-file=F --reporting-url=https://127.0.0.1:8082 --tls-dir=var/tls]   kafka-outage: the
 *                             reconciliation's two checks (ReconciliationWatch), F written by chaos-plant
 * </pre>
 *
 * The answers of scenario {@code S} are {@code <answers-dir>/S.answers.log} (k6's LOG_ANSWERS lines, see
 * {@link AcceptedPayments}); every {@code *.answers.log} of the directory is one earlier scenario on the same
 * platform, which the invariant checks need (a payment the checks do not know of would count as unacknowledged).
 */
public final class ChaosCheck {

    static final String ANSWERS_SUFFIX = ".answers.log";
    private static final Duration POLL_INTERVAL = Duration.ofMillis(500);
    /** Reconciliation rounds run every few seconds: its metrics are read every 2 s. */
    private static final Duration RECONCILIATION_POLL_INTERVAL = Duration.ofSeconds(2);

    private ChaosCheck() {}

    public static void main(String[] args) throws Exception {
        ChaosCheckOptions options = ChaosCheckOptions.parse(args);
        Check.that(
                !options.finalWait().isNegative() && options.finalWait().compareTo(Duration.ofHours(1)) <= 0,
                "--final-wait-seconds in [0, 3600]: %s",
                options.finalWait());
        Check.that(
                !options.loadWait().isNegative() && options.loadWait().compareTo(Duration.ofHours(2)) <= 0,
                "--load-wait-seconds in [0, 7200]: %s",
                options.loadWait());

        ChaosSummary summary;
        try (ReadSide platform = ReadSide.open(options.readSide(), "chaos-check")) {
            DataSource dataSource = platform.dataSource();
            Ledger ledger = platform.ledger();
            Path answers = options.answersDir().resolve(options.scenario() + ANSWERS_SUFFIX);
            List<UUID> acceptedByFaultEnd = acceptedIds(AcceptedPayments.read(answers));
            Instant recoveredAt = ReadModel.awaitFinal(
                    dataSource,
                    options.schema(),
                    acceptedByFaultEnd,
                    Instant.now().plus(options.loadWait()).plus(options.finalWait()),
                    "chaos-check");
            awaitFile(options.loadDone(), Instant.now().plus(options.loadWait()));
            Instant loadEnd = Instant.now();
            List<UUID> accepted = acceptedIds(AcceptedPayments.read(answers));
            Instant finalDeadline = Instant.now().plus(options.finalWait());
            ReadModel.awaitFinal(dataSource, options.schema(), accepted, finalDeadline, "chaos-check");
            // Every payment is judged, the participants' returns too: wait for those asked after the last settlement.
            Quiescence.Result quiet = Quiescence.await(
                    dataSource,
                    options.schema(),
                    options.bootstrap(),
                    Quiescence.QUIET_DEFAULT,
                    Quiescence.atLeastQuiet(Duration.between(Instant.now(), finalDeadline)));
            System.out.println("  before the checks: " + quiet.describe());
            Map<UUID, String> statuses = ReadModel.statuses(dataSource, options.schema(), accepted);
            int finalCount =
                    (int) statuses.values().stream().filter(ReadModel::isFinal).count();
            int settled = (int)
                    statuses.values().stream().filter(ReadModel.SETTLED::equals).count();

            List<InvariantChecks.Verdict> reconciliation = options.plantedFile().isBlank()
                    ? List.of()
                    : watchReconciliation(
                            WrongRowPlant.Planted.parse(Files.readString(Path.of(options.plantedFile()))),
                            dataSource,
                            options.schema(),
                            options.reporting(),
                            options.tls(),
                            Instant.now().plus(options.finalWait()));
            // The read model first, then the outcomes topic: every final state it projected is then on the topic.
            List<ReadModel.Row> rows = ReadModel.load(dataSource, options.schema());
            OutcomeLog outcomes = OutcomeLog.read(options.bootstrap());
            int duplicated = duplicated(accepted, outcomes);
            List<InvariantChecks.Verdict> verdicts = new ArrayList<>(new InvariantChecks(
                            ledger,
                            DemoAccounts.read(options.accounts()),
                            rows,
                            outcomes,
                            allAnswers(options.answersDir()))
                    .runAll());
            verdicts.add(HoldsCheck.run(dataSource, "payment_api", ledger, Instant.now()));
            verdicts.addAll(reconciliation);
            printEvidence(verdicts, outcomes, acceptedByFaultEnd.size());
            System.out.println("  the scenario's accepted payments by read-model status: " + countByStatus(statuses));
            Duration recovery =
                    recoveredAt == null ? null : nonNegative(Duration.between(options.faultEnd(), recoveredAt));
            int degraded = SettledRate.degradedSeconds(
                    SettledRate.perSecond(dataSource, options.schema(), options.loadStart(), loadEnd),
                    options.loadStart(),
                    options.faultStart(),
                    loadEnd);
            int passed = (int)
                    verdicts.stream().filter(InvariantChecks.Verdict::passed).count();
            summary = new ChaosSummary(
                    options.scenario(),
                    ledger.backendName(),
                    options.offeredPayments(),
                    accepted.size(),
                    finalCount,
                    settled,
                    accepted.size() - finalCount,
                    duplicated,
                    nonNegative(Duration.between(options.faultStart(), options.faultEnd())),
                    recovery,
                    degraded,
                    passed,
                    verdicts.size(),
                    OutcomeLog.deadLettered(options.bootstrap()));
        }
        System.out.println(summary.line());
        System.exit(summary.passed() ? 0 : 1);
    }

    /**
     * The reconciliation's side of {@code kafka-outage} ({@link ReconciliationWatch}): polls reporting's metrics until
     * it judged every payment it owed since the planting and reported the planted row, or the deadline; then removes
     * the planted row, so that the money checks judge the real platform.
     */
    private static List<InvariantChecks.Verdict> watchReconciliation(
            WrongRowPlant.Planted planted,
            DataSource dataSource,
            String schema,
            URI reporting,
            LocalTls tls,
            Instant deadline)
            throws Exception {
        InvariantChecks.Verdict judged;
        InvariantChecks.Verdict reported;
        try {
            do {
                String metrics = ReconciliationWatch.fetchMetrics(reporting, tls.monitor());
                judged = ReconciliationWatch.everyPaymentJudged(
                        planted.checkedBefore(),
                        ReconciliationWatch.sum(metrics, ReconciliationWatch.CHECKED, "check", "payment"),
                        ReconciliationWatch.finalAcceptedSince(dataSource, schema, planted.judgedBefore()));
                reported = ReconciliationWatch.plantedReported(
                        planted,
                        ReconciliationWatch.sum(
                                metrics, ReconciliationWatch.MISMATCHES, "kind", ReconciliationWatch.PLANTED_KIND));
                if (judged.passed() && reported.passed()) {
                    break;
                }
                Thread.sleep(RECONCILIATION_POLL_INTERVAL);
            } while (Instant.now().isBefore(deadline));
        } finally {
            WrongRowPlant.remove(dataSource, schema, planted.paymentId());
        }
        return List.of(judged, reported);
    }

    /**
     * Accepted payments with two distinct final states on the outcomes topic (the read model keeps one row per
     * payment, its first final state: only the topic shows a second).
     */
    static int duplicated(List<UUID> accepted, OutcomeLog outcomes) {
        int duplicated = 0;
        for (UUID id : accepted) {
            Set<String> statuses =
                    outcomes.statusesByPayment().get(Id128.fromUuid(id).toString());
            if (statuses != null && statuses.size() > 1) {
                duplicated++;
            }
        }
        return duplicated;
    }

    /** Distinct payment ids of the 2xx answers, in the order first told. */
    public static List<UUID> acceptedIds(AcceptedPayments answers) {
        Set<UUID> ids = new LinkedHashSet<>();
        for (AcceptedPayments.Acceptance acceptance : answers.accepted()) {
            ids.add(Id128.parse(InvariantChecks.normalize(acceptance.paymentId()))
                    .toUuid());
        }
        return new ArrayList<>(ids);
    }

    private static void awaitFile(Path file, Instant deadline) throws InterruptedException {
        while (!Files.exists(file)) {
            Check.that(Instant.now().isBefore(deadline), "the load did not end (no %s) by %s", file, deadline);
            Thread.sleep(POLL_INTERVAL);
        }
    }

    /**
     * Every scenario's answers on this platform. Complete lines only: the load of a scenario that died was
     * stopped, possibly in the middle of a line.
     */
    private static AcceptedPayments allAnswers(Path dir) throws IOException {
        List<String> lines = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(ANSWERS_SUFFIX))
                    .sorted()
                    .toList()) {
                lines.addAll(AcceptedPayments.completeLines(file));
            }
        }
        return AcceptedPayments.parse(lines);
    }

    private static void printEvidence(
            List<InvariantChecks.Verdict> verdicts, OutcomeLog outcomes, int acceptedByFaultEnd) {
        System.out.printf(
                "  %d payments accepted by the fault's end; outcomes topic: %d records, %d not a payment outcome "
                        + "(poison), %d payments with two distinct final states%n",
                acceptedByFaultEnd,
                outcomes.records(),
                outcomes.undecodable(),
                outcomes.conflicting().size());
        outcomes.conflicting().stream()
                .limit(InvariantChecks.PROBLEMS_LISTED_MAX)
                .forEach(conflict -> System.out.println("         - " + conflict));
        for (InvariantChecks.Verdict verdict : verdicts) {
            System.out.printf("  [%s] %s: %s%n", verdict.passed() ? "PASS" : "FAIL", verdict.name(), verdict.summary());
            verdict.problems().forEach(problem -> System.out.println("         - " + problem));
        }
    }

    private static Map<String, Long> countByStatus(Map<UUID, String> statuses) {
        return statuses.values().stream()
                .collect(Collectors.groupingBy(status -> status, TreeMap::new, Collectors.counting()));
    }

    private static Duration nonNegative(Duration duration) {
        return duration.isNegative() ? Duration.ZERO : duration;
    }
}
