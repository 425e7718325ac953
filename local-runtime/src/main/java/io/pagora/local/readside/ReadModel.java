package io.pagora.local.readside;

import io.pagora.kernel.Id128;
import io.pagora.local.servers.LocalPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The reporting service's read model ({@code <schema>.payments}), read directly with SQL: the report
 * must see every row, not a page of an HTTP listing, and must not depend on the service being up.
 */
public final class ReadModel {

    public static final String SETTLED = "SETTLED";
    public static final String REJECTED = "REJECTED";
    public static final String EXPIRED = "EXPIRED";
    public static final String ACCEPTED = "ACCEPTED";

    /**
     * One payment as projected. {@code finalAt} is null while the payment is not final; {@code returnOf} and
     * {@code returnReason} are null unless it is a return (devolução) of another payment.
     */
    public record Row(
            UUID paymentId,
            Id128 payer,
            Id128 payee,
            long amountCentavos,
            String status,
            String reason,
            Instant acceptedAt,
            Instant finalAt,
            Id128 returnOf,
            String returnReason) {

        Row(
                UUID paymentId,
                Id128 payer,
                Id128 payee,
                long amountCentavos,
                String status,
                String reason,
                Instant acceptedAt,
                Instant finalAt) {
            this(paymentId, payer, payee, amountCentavos, status, reason, acceptedAt, finalAt, null, null);
        }

        public boolean isFinal() {
            return ReadModel.isFinal(status);
        }

        public boolean isReturn() {
            return returnOf != null;
        }
    }

    private ReadModel() {}

    public static List<Row> load(DataSource dataSource, String schema) throws SQLException {
        String sql = "SELECT payment_id, payer_account_id, payee_account_id, amount_centavos, status, reason, "
                + "accepted_at, final_at, return_of, return_reason FROM " + LocalPostgres.quoteIdentifier(schema)
                + ".payments ORDER BY payment_id";
        List<Row> rows = new ArrayList<>();
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false); // lets the driver stream with a cursor instead of loading all at once
            connection.setReadOnly(true);
            try (PreparedStatement query = connection.prepareStatement(sql)) {
                query.setFetchSize(10_000);
                try (ResultSet result = query.executeQuery()) {
                    while (result.next()) {
                        rows.add(new Row(
                                result.getObject(1, UUID.class),
                                Id128.fromUuid(result.getObject(2, UUID.class)),
                                Id128.fromUuid(result.getObject(3, UUID.class)),
                                result.getLong(4),
                                result.getString(5),
                                result.getString(6),
                                instant(result.getTimestamp(7)),
                                instant(result.getTimestamp(8)),
                                result.getObject(9) == null ? null : Id128.fromUuid(result.getObject(9, UUID.class)),
                                result.getString(10)));
                    }
                }
            }
            connection.commit();
        }
        return rows;
    }

    /** Ids per status query: one array parameter each, whatever the number of payments. */
    static final int IDS_PER_QUERY = 10_000;

    /** The status of each given payment that the read model holds (absent ones are not in the map). */
    public static Map<UUID, String> statuses(DataSource dataSource, String schema, List<UUID> ids) throws SQLException {
        String sql = "SELECT payment_id, status FROM " + LocalPostgres.quoteIdentifier(schema)
                + ".payments WHERE payment_id = ANY(?)";
        Map<UUID, String> statuses = new LinkedHashMap<>();
        try (Connection connection = dataSource.getConnection();
                PreparedStatement query = connection.prepareStatement(sql)) {
            for (int from = 0; from < ids.size(); from += IDS_PER_QUERY) {
                List<UUID> chunk = ids.subList(from, Math.min(ids.size(), from + IDS_PER_QUERY));
                query.setArray(1, connection.createArrayOf("uuid", chunk.toArray()));
                try (ResultSet result = query.executeQuery()) {
                    while (result.next()) {
                        statuses.put(result.getObject(1, UUID.class), result.getString(2));
                    }
                }
            }
        }
        return statuses;
    }

    /** Pause between two polls of {@link #awaitFinal}. */
    static final Duration POLL_INTERVAL = Duration.ofMillis(500);

    /**
     * Polls the read model until every given payment is final; returns that instant, or null at the deadline.
     * A failing query (PostgreSQL just restarted) is retried at the next poll. {@code tool} heads the messages.
     */
    public static Instant awaitFinal(
            DataSource dataSource, String schema, List<UUID> ids, Instant deadline, String tool)
            throws InterruptedException {
        long open = Long.MAX_VALUE;
        while (Instant.now().isBefore(deadline)) {
            try {
                open = ids.size()
                        - statuses(dataSource, schema, ids).values().stream()
                                .filter(ReadModel::isFinal)
                                .count();
                if (open == 0) {
                    return Instant.now();
                }
            } catch (SQLException e) {
                System.err.println(tool + ": read model not readable yet: " + e.getMessage());
            }
            Thread.sleep(POLL_INTERVAL);
        }
        System.err.printf(
                "%s: %s of %d payments still not final at the deadline%n",
                tool, open == Long.MAX_VALUE ? "?" : Long.toString(open), ids.size());
        return null;
    }

    public static boolean isFinal(String status) {
        return SETTLED.equals(status) || REJECTED.equals(status) || EXPIRED.equals(status);
    }

    private static Instant instant(Timestamp timestamp) {
        return timestamp == null ? null : timestamp.toInstant();
    }
}
