package io.pagora.local.chaos;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.local.readside.ReadSide;
import io.pagora.local.runfiles.DemoAccounts;
import io.pagora.local.servers.LocalPostgres;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PaymentId;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Plants a wrong read-model row for the chaos scenario {@code kafka-outage} ({@code chaos-plant}): the row
 * {@link ReconciliationWatch} then expects reporting-service's online reconciliation to report.
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
public final class WrongRowPlant {

    /** How long before the planting the planted payment says it was accepted, in final-withins. */
    static final int PLANTED_AGE_FINAL_WITHINS = 3;

    private static final long PLANTED_AMOUNT_CENTAVOS = 4_242;

    private WrongRowPlant() {}

    /** What was true when the row was planted: written by chaos-plant, read by chaos-check. */
    record Planted(UUID paymentId, double mismatchesBefore, double checkedBefore, Instant judgedBefore) {

        String line() {
            return paymentId + " " + mismatchesBefore + " " + checkedBefore + " " + judgedBefore;
        }

        static Planted parse(String line) {
            String[] fields = line.strip().split(" ");
            Check.that(fields.length == 4, "a planted line has 4 fields: %s", line);
            return new Planted(
                    UUID.fromString(fields[0]),
                    Double.parseDouble(fields[1]),
                    Double.parseDouble(fields[2]),
                    Instant.parse(fields[3]));
        }
    }

    public static void main(String[] args) throws Exception {
        WrongRowPlantOptions options = WrongRowPlantOptions.parse(args);
        Instant now = Instant.now();
        String metrics = ReconciliationWatch.fetchMetrics(
                options.reporting(), options.tls().monitor());
        Planted planted;
        try (var database = ReadSide.openDatabase(options.readSide(), "chaos-plant")) {
            UUID id = plant(
                    database, options.schema(), DemoAccounts.read(options.accounts()), now, options.finalWithin());
            planted = new Planted(
                    id,
                    ReconciliationWatch.sum(
                            metrics, ReconciliationWatch.MISMATCHES, "kind", ReconciliationWatch.PLANTED_KIND),
                    ReconciliationWatch.sum(metrics, ReconciliationWatch.CHECKED, "check", "payment"),
                    now.minus(options.finalWithin()));
        }
        Files.writeString(options.out(), planted.line() + "\n", StandardCharsets.UTF_8);
        System.out.println("planted a wrong read-model row: SETTLED payment " + planted.paymentId()
                + " that the ledger never saw, accepted " + PLANTED_AGE_FINAL_WITHINS + " x "
                + options.finalWithin().toSeconds() + " s before now");
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
        Check.that(
                customers.size() >= 2,
                "planting needs two seeded customers, the accounts file has %d",
                customers.size());
        Id128 payer = customers.get(0);
        Id128 payee = customers.get(customers.size() - 1);
        Instant acceptedAt = now.minus(finalWithin.multipliedBy(PLANTED_AGE_FINAL_WITHINS));
        UUID id = idAcceptedAt(acceptedAt, new SecureRandom().nextLong()).toUuid();
        String sql =
                "INSERT INTO " + LocalPostgres.quoteIdentifier(schema) + ".payments (payment_id, payer_account_id, "
                        + "payee_account_id, payer_bank_ispb, payee_bank_ispb, amount_centavos, accepted_at, status, final_at, "
                        + "projected_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'SETTLED', ?, ?, ?)";
        try (Connection connection = database.getConnection();
                PreparedStatement insert = connection.prepareStatement(sql)) {
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
        try (Connection connection = database.getConnection();
                PreparedStatement delete = connection.prepareStatement(sql)) {
            delete.setObject(1, paymentId);
            delete.executeUpdate();
        }
    }
}
