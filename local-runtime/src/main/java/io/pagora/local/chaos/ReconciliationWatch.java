package io.pagora.local.chaos;

import io.pagora.kernel.Check;
import io.pagora.local.checks.InvariantChecks;
import io.pagora.local.servers.LocalPostgres;
import io.pagora.local.tls.LocalTls;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.sql.DataSource;

/**
 * What the chaos scenario {@code kafka-outage} asks of reporting-service's online reconciliation: after a Kafka
 * outage longer than its {@code final-within}, every payment of the outage is judged once it projects, and the
 * read-model row {@link WrongRowPlant} planted wrong during the outage is reported. It reads the reconciliation's own
 * metrics ({@code pagora_reconciliation_*} at {@code /actuator/prometheus}, as the monitor identity over mutual TLS).
 */
public final class ReconciliationWatch {

    static final String CHECKED = "pagora_reconciliation_checked_total";
    static final String MISMATCHES = "pagora_reconciliation_mismatches_total";
    static final String PLANTED_KIND = "settled_not_posted";
    private static final Duration HTTP_TIMEOUT = Duration.ofSeconds(10);
    /** A bound on a metrics page (reporting's is a few tens of KiB). */
    private static final int METRICS_CHARS_MAX = 4 << 20;

    private ReconciliationWatch() {}

    /** Final payments of the read model accepted at or after {@code from}: the ones the reconciliation still owed. */
    static long finalAcceptedSince(DataSource database, String schema, Instant from) throws SQLException {
        String sql = "SELECT count(*) FROM " + LocalPostgres.quoteIdentifier(schema)
                + ".payments WHERE status <> 'ACCEPTED' AND accepted_at >= ?";
        try (Connection connection = database.getConnection();
                PreparedStatement query = connection.prepareStatement(sql)) {
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
        String summary = String.format(
                "%.0f payments judged by the online reconciliation since the outage began, "
                        + "%d final payments owed (accepted since final-within before it)",
                judged, owed);
        List<String> problems = passed
                ? List.of()
                : List.of(
                        owed == 0
                                ? "no payment to judge: no load reached the platform"
                                : String.format("%.0f payments never judged", owed - judged));
        return new InvariantChecks.Verdict(
                "(e) reconciliation judged every payment of the outage", passed, summary, problems);
    }

    /** The planted row was reported: the settled-not-posted mismatches grew. */
    static InvariantChecks.Verdict plantedReported(WrongRowPlant.Planted planted, double mismatchesAfter) {
        boolean passed = mismatchesAfter > planted.mismatchesBefore();
        String summary = String.format(
                "%s{kind=\"%s\"} %.0f → %.0f after planting SETTLED payment %s (no ledger leg)",
                MISMATCHES, PLANTED_KIND, planted.mismatchesBefore(), mismatchesAfter, planted.paymentId());
        return new InvariantChecks.Verdict(
                "(f) reconciliation reported the planted row",
                passed,
                summary,
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
            answer = client.send(
                    HttpRequest.newBuilder(reporting.resolve("/actuator/prometheus"))
                            .timeout(HTTP_TIMEOUT)
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        }
        Check.that(
                answer.statusCode() == 200,
                "GET %s/actuator/prometheus as monitor answered %d",
                reporting,
                answer.statusCode());
        Check.that(
                answer.body().length() <= METRICS_CHARS_MAX,
                "metrics page of %d chars",
                answer.body().length());
        return answer.body();
    }
}
