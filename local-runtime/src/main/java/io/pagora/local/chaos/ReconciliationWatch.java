package io.pagora.local.chaos;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.local.checks.InvariantChecks;
import io.pagora.local.cli.Options;
import io.pagora.local.readside.ReadSide;
import io.pagora.local.runfiles.DemoAccounts;
import io.pagora.local.servers.LocalPostgres;
import io.pagora.local.tls.LocalTls;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.net.ssl.SSLContext;
import javax.sql.DataSource;

/**
 * What the chaos scenario {@code kafka-outage} asks of reporting-service's online reconciliation (issue 16, item 2):
 * after a Kafka outage longer than its {@code final-within}, every payment of the outage is judged once it projects,
 * and a read-model row planted wrong during the outage is reported. It reads the reconciliation's own metrics
 * ({@code pagora_reconciliation_*} at {@code /actuator/prometheus}, as the monitor identity over mutual TLS), and
 * plants the wrong row by SQL.
 *
 * <p>The planted row is a SETTLED payment between two seeded customers that the ledger never saw (no post leg),
 * accepted {@link #PLANTED_AGE_FINAL_WITHINS} {@code final-within}s before it is planted: it arrives behind any
 * cursor that follows acceptance time, as a replay of a key claimed minutes earlier or a projection lag above
 * {@code final-within} does. Written by SQL, it moves no account's totals (the balances agree) and has no projection
 * digest: the reconciliation must find it through its transaction's digest, ask the ledger, and count it in
 * {@code pagora_reconciliation_mismatches_total{kind="settled_not_posted"}}, whatever the leg sample. The check deletes it again before the
 * money invariant checks run, which judge the real platform.
 *
 * <pre>
 *   java -jar local-runtime.jar chaos-plant --out=FILE --accounts=var/demo/accounts.tsv
 *       --reporting-url=https://127.0.0.1:8082 --tls-dir=var/tls --final-within-seconds=20 [--reporting-schema=reporting]
 *       [ReadSide's connection options]
 * </pre>
 * writes {@code FILE}: the planted payment id, the mismatch counter and the payments checked at that moment, and
 * the acceptance time before which payments may have been judged already (the moment minus final-within).
 */
public final class ReconciliationWatch {

    static final String CHECKED = "pagora_reconciliation_checked_total";
    static final String MISMATCHES = "pagora_reconciliation_mismatches_total";
    static final String PLANTED_KIND = "settled_not_posted";
    /** How long before the planting the planted payment says it was accepted, in final-withins. */
    static final int PLANTED_AGE_FINAL_WITHINS = 3;
    private static final long PLANTED_AMOUNT_CENTAVOS = 4_242;
    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(10);
    /** A bound on a metrics page (reporting's is a few tens of KiB). */
    private static final int METRICS_CHARS_MAX = 4 << 20;

    private ReconciliationWatch() {}

    /** What was true when the row was planted: written by chaos-plant, read by chaos-check. */
    record Planted(UUID paymentId, double mismatchesBefore, double checkedBefore, Instant judgedBefore) {

        String line() {
            return paymentId + " " + mismatchesBefore + " " + checkedBefore + " " + judgedBefore;
        }

        static Planted parse(String line) {
            String[] fields = line.strip().split(" ");
            Check.that(fields.length == 4, "a planted line has 4 fields: %s", line);
            return new Planted(UUID.fromString(fields[0]), Double.parseDouble(fields[1]), Double.parseDouble(fields[2]),
                    Instant.parse(fields[3]));
        }
    }

    public static void main(String[] args) throws Exception {
        Options options = new Options(args);
        Path out = options.path("out");
        Path accounts = options.path("accounts");
        URI reporting = LocalTls.requireHttps(URI.create(options.required("reporting-url")));
        LocalTls tls = LocalTls.of(options);
        Duration finalWithin = Duration.ofSeconds(options.longValue("final-within-seconds", 60));
        String schema = options.string("reporting-schema", "reporting");
        ReadSide.Settings readSide = ReadSide.Settings.from(options);
        options.rejectUnknown();
        Instant now = Instant.now();
        String metrics = fetchMetrics(reporting, tls.monitor());
        Planted planted;
        try (var database = ReadSide.openDatabase(readSide, "chaos-plant")) {
            UUID id = plant(database, schema, DemoAccounts.read(accounts), now, finalWithin);
            planted = new Planted(id, sum(metrics, MISMATCHES, "kind", PLANTED_KIND), sum(metrics, CHECKED, "check", "payment"),
                    now.minus(finalWithin));
        }
        Files.writeString(out, planted.line() + "\n", StandardCharsets.UTF_8);
        System.out.println("planted a wrong read-model row: SETTLED payment " + planted.paymentId()
                + " that the ledger never saw, accepted " + PLANTED_AGE_FINAL_WITHINS + " x " + finalWithin.toSeconds()
                + " s before now");
    }

    /**
     * The planted payment's id: a well-formed payment id (time-ordered like the platform's, its top 48 bits the
     * acceptance millisecond, its low byte zero), so the reconciliation judges it as a payment the ledger never saw
     * and not as a malformed id ({@code invalid}), which would hide the check this plant is for.
     */
    static Id128 idAcceptedAt(Instant acceptedAt, long random) {
        Id128 id = new Id128((acceptedAt.toEpochMilli() << 16) | (random & 0xFFFF), (random & ~0xFFL) | 0x100L);
        return new PaymentId(id).value();
    }

    static UUID plant(DataSource database, String schema, DemoAccounts accounts, Instant now, Duration finalWithin)
            throws SQLException {
        List<Id128> customers = new ArrayList<>(accounts.customerFundings().keySet());
        Check.that(customers.size() >= 2, "planting needs two seeded customers, the accounts file has %d", customers.size());
        Id128 payer = customers.get(0);
        Id128 payee = customers.get(customers.size() - 1);
        Instant acceptedAt = now.minus(finalWithin.multipliedBy(PLANTED_AGE_FINAL_WITHINS));
        UUID id = idAcceptedAt(acceptedAt, new SecureRandom().nextLong()).toUuid();
        String sql = "INSERT INTO " + LocalPostgres.quoteIdentifier(schema) + ".payments (payment_id, payer_account_id, "
                + "payee_account_id, payer_bank_ispb, payee_bank_ispb, amount_centavos, accepted_at, status, final_at, "
                + "projected_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'SETTLED', ?, ?, ?)";
        try (Connection connection = database.getConnection(); PreparedStatement insert = connection.prepareStatement(sql)) {
            insert.setObject(1, id);
            insert.setObject(2, payer.toUuid());
            insert.setObject(3, payee.toUuid());
            insert.setInt(4, ChartOfAccounts.bankOf(payer).orElseThrow().ispb());
            insert.setInt(5, ChartOfAccounts.bankOf(payee).orElseThrow().ispb());
            insert.setLong(6, PLANTED_AMOUNT_CENTAVOS);
            insert.setTimestamp(7, Timestamp.from(acceptedAt));
            insert.setTimestamp(8, Timestamp.from(now));
            insert.setTimestamp(9, Timestamp.from(now));
            insert.setTimestamp(10, Timestamp.from(now));
            Check.that(insert.executeUpdate() == 1, "the planted row was not inserted");
        }
        return id;
    }

    /** Removes the planted row (chaos-check, once the reconciliation had its chance to report it). */
    static void remove(DataSource database, String schema, UUID paymentId) throws SQLException {
        String sql = "DELETE FROM " + LocalPostgres.quoteIdentifier(schema) + ".payments WHERE payment_id = ?";
        try (Connection connection = database.getConnection(); PreparedStatement delete = connection.prepareStatement(sql)) {
            delete.setObject(1, paymentId);
            delete.executeUpdate();
        }
    }

    /** Final payments of the read model accepted at or after {@code from}: the ones the reconciliation still owed. */
    static long finalAcceptedSince(DataSource database, String schema, Instant from) throws SQLException {
        String sql = "SELECT count(*) FROM " + LocalPostgres.quoteIdentifier(schema)
                + ".payments WHERE status <> 'ACCEPTED' AND accepted_at >= ?";
        try (Connection connection = database.getConnection(); PreparedStatement query = connection.prepareStatement(sql)) {
            query.setTimestamp(1, Timestamp.from(from));
            try (ResultSet result = query.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

    /**
     * The reconciliation judged every payment it owed at the planting: its payments checked grew by at least the
     * final payments accepted since then (minus final-within). Zero owed is no evidence: nothing flowed.
     */
    static InvariantChecks.Verdict everyPaymentJudged(double checkedBefore, double checkedAfter, long owed) {
        double judged = checkedAfter - checkedBefore;
        boolean passed = owed > 0 && judged >= owed;
        String summary = String.format("%.0f payments judged by the online reconciliation since the outage began, "
                + "%d final payments owed (accepted since final-within before it)", judged, owed);
        List<String> problems = passed ? List.of() : List.of(owed == 0 ? "no payment to judge: no load reached the platform"
                : String.format("%.0f payments never judged", owed - judged));
        return new InvariantChecks.Verdict("(e) reconciliation judged every payment of the outage", passed, summary, problems);
    }

    /** The planted row was reported: the settled-not-posted mismatches grew. */
    static InvariantChecks.Verdict plantedReported(Planted planted, double mismatchesAfter) {
        boolean passed = mismatchesAfter > planted.mismatchesBefore();
        String summary = String.format("%s{kind=\"%s\"} %.0f → %.0f after planting SETTLED payment %s (no ledger leg)",
                MISMATCHES, PLANTED_KIND, planted.mismatchesBefore(), mismatchesAfter, planted.paymentId());
        return new InvariantChecks.Verdict("(f) reconciliation reported the planted row", passed, summary,
                passed ? List.of() : List.of("the planted row was never reported as a mismatch"));
    }

    /**
     * The sum of the samples of {@code name} (Prometheus text format) whose labels include {@code label="value"}.
     * A metric that is absent is 0 (a counter not incremented yet may not be exported).
     */
    static double sum(String prometheusText, String name, String label, String value) {
        String wanted = label + "=\"" + value + "\"";
        double total = 0;
        for (String line : prometheusText.split("\n")) {
            if (line.startsWith("#") || !line.startsWith(name)) {
                continue;
            }
            String rest = line.substring(name.length());
            if (!rest.startsWith("{") || !rest.contains(wanted)) {
                continue;
            }
            int close = rest.lastIndexOf('}');
            String[] sample = rest.substring(close + 1).strip().split(" ");
            total += Double.parseDouble(sample[0]);
        }
        return total;
    }

    /** reporting-service's {@code /actuator/prometheus} as the monitor (the one identity that reads it). */
    public static String fetchMetrics(URI reporting, SSLContext monitor) throws IOException, InterruptedException {
        HttpResponse<String> answer;
        try (HttpClient client = LocalTls.client(monitor, null)) {
            answer = client.send(HttpRequest.newBuilder(reporting.resolve("/actuator/prometheus"))
                    .timeout(HTTP_TIMEOUT).GET().build(), HttpResponse.BodyHandlers.ofString());
        }
        Check.that(answer.statusCode() == 200, "GET %s/actuator/prometheus as monitor answered %d", reporting,
                answer.statusCode());
        Check.that(answer.body().length() <= METRICS_CHARS_MAX, "metrics page of %d chars", answer.body().length());
        return answer.body();
    }
}
