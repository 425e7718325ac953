package io.pagora.reporting.adapter.jdbc;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.reporting.application.ReadModelWriter;
import io.pagora.reporting.domain.FinalState;
import io.pagora.reporting.domain.IntegrityAlarm;
import io.pagora.reporting.domain.PaymentFacts;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.domain.ProjectionDigest;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.sql.Array;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The read model's writer: one transaction per poll, at most seven set-based statements whatever the
 * number of payments, each taking its rows as arrays through {@code unnest}.
 *
 * <p>Over 400 lines on purpose: one poll's statements are read here in the order its transaction runs them.
 *
 * <ol>
 *   <li>Insert the payments new to the read model ({@code ON CONFLICT DO NOTHING}), with their
 *       statement entries if they arrive already settled (outcome before request).</li>
 *   <li>Finalize the existing ones that are still ACCEPTED and have an outcome in this poll
 *       ({@code WHERE status = 'ACCEPTED'}: the first final state wins), with their statement entries.</li>
 *   <li>Fill the request details of existing payments that lack them (request after outcome).</li>
 *   <li>Read back the remaining existing rows, to tell a redelivery (same final state: nothing to do)
 *       from a conflicting outcome (an integrity alarm, never an overwrite).</li>
 *   <li>Add this poll's settled payments to the totals of the accounts and of the banks they moved
 *       ({@code account_flows}, {@code bank_flows}): the reconciliation compares balances with these, never
 *       with a sum over the payments; and to their banks' positions of the day ({@code bank_day_positions}). In
 *       account, bank and day order, so concurrent consumers lock them in one order.</li>
 *   <li>Add this poll's deltas to the single {@code payment_stats} row, and record the digest of the rows it
 *       inserted ({@code projection_digests}, see {@link ProjectionDigest}).</li>
 * </ol>
 *
 * Separate statements, not one statement of data-modifying CTEs: CTEs share one snapshot, so an UPDATE
 * CTE would not see a row a concurrent consumer inserted after it (the outcome would be lost), nor the
 * rows the INSERT CTE just wrote. In READ COMMITTED each statement sees what committed before it, and an
 * UPDATE re-checks {@code status = 'ACCEPTED'} on the newest row version after waiting for its lock.
 * Payments are handled in payment id order so concurrent consumers lock rows in the same order.
 */
public final class JdbcReadModelWriter implements ReadModelWriter {

    /** The statements a poll's transaction may run: the bound a test checks. */
    public static final int STATEMENTS_PER_POLL_MAX = 7;

    private static final String INSERT_NEW =
            """
            WITH input AS (
                SELECT * FROM unnest(?::uuid[], ?::uuid[], ?::uuid[], ?::integer[], ?::integer[], ?::bigint[],
                                     ?::text[], ?::text[], ?::text[], ?::bigint[], ?::boolean[],
                                     ?::text[], ?::text[], ?::text[], ?::bigint[], ?::uuid[], ?::text[])
                    AS i(payment_id, payer_account_id, payee_account_id, payer_bank_ispb, payee_bank_ispb,
                         amount_centavos, currency, description, end_to_end_id, accepted_at_micros, requested,
                         status, reason, detail, final_at_micros, return_of, return_reason)
            ), inserted AS (
                INSERT INTO reporting.payments (payment_id, payer_account_id, payee_account_id, payer_bank_ispb,
                        payee_bank_ispb, amount_centavos, currency, description, end_to_end_id, accepted_at,
                        requested_at, status, reason, detail, final_at, projected_at, updated_at, return_of,
                        return_reason)
                SELECT payment_id, payer_account_id, payee_account_id, payer_bank_ispb, payee_bank_ispb,
                       amount_centavos, currency, description, end_to_end_id,
                       TIMESTAMPTZ 'epoch' + accepted_at_micros * INTERVAL '1 microsecond',
                       CASE WHEN requested THEN now() END,
                       status, reason, detail,
                       TIMESTAMPTZ 'epoch' + final_at_micros * INTERVAL '1 microsecond',
                       now(), now(), return_of, return_reason
                FROM input
                ORDER BY payment_id
                ON CONFLICT (payment_id) DO NOTHING
                RETURNING payment_id, payer_account_id, payee_account_id, amount_centavos, status, final_at,
                          return_of IS NOT NULL AS is_return
            ), entries AS (""" + statementEntriesOf("inserted") + """
            ), not_settled AS (""" + notSettledOf("inserted") + """
            )
            SELECT payment_id, payer_account_id, payee_account_id, amount_centavos, status, final_at, is_return
            FROM inserted
            """;

    private static final String FINALIZE =
            """
            WITH input AS (
                SELECT * FROM unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::bigint[])
                    AS i(payment_id, status, reason, detail, final_at_micros)
            ), finalized AS (
                UPDATE reporting.payments p
                SET status = i.status, reason = i.reason, detail = i.detail,
                    final_at = TIMESTAMPTZ 'epoch' + i.final_at_micros * INTERVAL '1 microsecond',
                    updated_at = now()
                FROM input i
                WHERE p.payment_id = i.payment_id AND p.status = 'ACCEPTED'
                RETURNING p.payment_id, p.payer_account_id, p.payee_account_id, p.amount_centavos,
                          p.status, p.reason, p.final_at, p.return_of IS NOT NULL AS is_return
            ), entries AS (""" + statementEntriesOf("finalized") + """
            ), not_settled AS (""" + notSettledOf("finalized") + """
            )
            SELECT payment_id, payer_account_id, payee_account_id, amount_centavos, status, reason, final_at, is_return
            FROM finalized
            """;

    private static final String FILL_REQUESTS = """
            UPDATE reporting.payments p
            SET requested_at = now(), currency = i.currency, description = i.description,
                end_to_end_id = i.end_to_end_id, updated_at = now(),
                return_of = COALESCE(p.return_of, i.return_of), return_reason = COALESCE(p.return_reason, i.return_reason)
            FROM unnest(?::uuid[], ?::text[], ?::text[], ?::text[], ?::uuid[], ?::text[])
                AS i(payment_id, currency, description, end_to_end_id, return_of, return_reason)
            WHERE p.payment_id = i.payment_id AND p.requested_at IS NULL
            RETURNING p.payment_id, p.payer_account_id, p.payee_account_id, p.amount_centavos, p.status, p.reason
            """;

    private static final String READ_STORED = """
            SELECT payment_id, payer_account_id, payee_account_id, amount_centavos, status, reason
            FROM reporting.payments WHERE payment_id = ANY (?::uuid[])
            """;

    private static final String ADD_ACCOUNT_FLOWS = """
            INSERT INTO reporting.account_flows AS f (account_id, outgoing_centavos, incoming_centavos)
            SELECT * FROM unnest(?::uuid[], ?::bigint[], ?::bigint[]) AS i(account_id, outgoing, incoming)
            ORDER BY account_id
            ON CONFLICT (account_id) DO UPDATE
            SET outgoing_centavos = f.outgoing_centavos + excluded.outgoing_centavos,
                incoming_centavos = f.incoming_centavos + excluded.incoming_centavos
            """;

    // The banks' daily positions ride on the bank flows' statement: independent tables, as the digest and the stats.
    private static final String ADD_BANK_FLOWS = """
            WITH positions AS (
                INSERT INTO reporting.bank_day_positions AS d (bank_ispb, day, sent_centavos, sent_count,
                        received_centavos, received_count, on_us_centavos, on_us_count)
                SELECT * FROM unnest(?::integer[], ?::date[], ?::bigint[], ?::bigint[], ?::bigint[], ?::bigint[],
                                     ?::bigint[], ?::bigint[])
                    AS i(bank_ispb, day, sent, sent_n, received, received_n, on_us, on_us_n)
                ORDER BY bank_ispb, day
                ON CONFLICT (bank_ispb, day) DO UPDATE
                SET sent_centavos = d.sent_centavos + excluded.sent_centavos,
                    sent_count = d.sent_count + excluded.sent_count,
                    received_centavos = d.received_centavos + excluded.received_centavos,
                    received_count = d.received_count + excluded.received_count,
                    on_us_centavos = d.on_us_centavos + excluded.on_us_centavos,
                    on_us_count = d.on_us_count + excluded.on_us_count
            )
            INSERT INTO reporting.bank_flows AS f (bank_ispb, sent_centavos, received_centavos)
            SELECT * FROM unnest(?::integer[], ?::bigint[], ?::bigint[]) AS i(bank_ispb, sent, received)
            ORDER BY bank_ispb
            ON CONFLICT (bank_ispb) DO UPDATE
            SET sent_centavos = f.sent_centavos + excluded.sent_centavos,
                received_centavos = f.received_centavos + excluded.received_centavos
            """;

    // The digest of this poll's inserted rows rides on the stats statement (no round trip of its own): independent
    // tables, so the data-modifying CTE's shared snapshot changes nothing.
    private static final String ADD_STATS = """
            WITH digest AS (
                INSERT INTO reporting.projection_digests (projected_xid, payments, amount_centavos, fingerprint)
                SELECT pg_current_xact_id(), ?, ?, ? WHERE ? > 0
            )
            UPDATE reporting.payment_stats
            SET accepted_count = accepted_count + ?, settled_count = settled_count + ?,
                rejected_count = rejected_count + ?, expired_count = expired_count + ?,
                returns_final_count = returns_final_count + ?,
                max_final_at = GREATEST(max_final_at, TIMESTAMPTZ 'epoch' + ?::bigint * INTERVAL '1 microsecond'),
                last_projected_at = now()
            WHERE id = 1
            """;

    /**
     * The statement entries of every SETTLED row of the CTE {@code rows}: the payer's DEBIT and the
     * payee's CREDIT. Shared by the insert of new payments and the finalize of existing ones.
     */
    private static String statementEntriesOf(String rows) {
        return """
                INSERT INTO reporting.statement_entries
                        (account_id, final_at, payment_id, direction, counterparty_account_id, amount_centavos)
                SELECT payer_account_id, final_at, payment_id, 'DEBIT', payee_account_id, amount_centavos
                FROM %1$s WHERE status = 'SETTLED'
                UNION ALL
                SELECT payee_account_id, final_at, payment_id, 'CREDIT', payer_account_id, amount_centavos
                FROM %1$s WHERE status = 'SETTLED'
                ON CONFLICT DO NOTHING
                """.formatted(rows);
    }

    /**
     * The REJECTED and EXPIRED rows of the CTE {@code rows}, into the table that lists them by status (V4: no index of
     * payments covers the status, so that finalizing a row is a heap-only update).
     */
    private static String notSettledOf(String rows) {
        return """
                INSERT INTO reporting.payments_not_settled (status, payment_id)
                SELECT status, payment_id FROM %1$s WHERE status IN ('REJECTED', 'EXPIRED')
                ON CONFLICT DO NOTHING
                """.formatted(rows);
    }

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;

    public JdbcReadModelWriter(JdbcTemplate jdbc, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.transactions = transactions;
    }

    @Override
    public Applied apply(List<PaymentFacts> facts) {
        Set<Id128> ids = new HashSet<>();
        for (PaymentFacts fact : facts) {
            Check.that(ids.add(fact.paymentId()), "a poll's facts name each payment once: %s", fact.paymentId());
        }
        if (facts.isEmpty()) {
            return new Applied(0, 0, 0, 0, List.of(), 0, List.of(), Writes.NONE);
        }
        return transactions.execute(status -> jdbc.execute((ConnectionCallback<Applied>) c -> applyIn(c, facts)));
    }

    private Applied applyIn(Connection c, List<PaymentFacts> facts) throws SQLException {
        Stats stats = new Stats();

        Set<Id128> inserted = insertNew(c, facts, stats);
        List<PaymentFacts> existing =
                facts.stream().filter(f -> !inserted.contains(f.paymentId())).toList();

        Map<Id128, Stored> stored = new HashMap<>();
        Set<Id128> finalized =
                finalize(c, existing.stream().filter(f -> f.outcome() != null).toList(), stats, stored);
        Set<Id128> filled = fillRequests(
                c, existing.stream().filter(f -> f.request() != null).toList(), stored);
        readStored(
                c,
                existing.stream()
                        .map(PaymentFacts::paymentId)
                        .filter(id -> !stored.containsKey(id))
                        .toList(),
                stored);

        List<IntegrityAlarm> alarms = new ArrayList<>();
        int redelivered = judgeExisting(existing, stored, finalized, filled, alarms);

        addFlows(c, stats);
        addStats(c, stats);
        int requestsVisible = filled.size();
        int writtenOnce = 0;
        // A finalized row was inserted by its request; a filled one by its outcome, so it is final already.
        int writtenTwice = finalized.size();
        for (Id128 id : filled) {
            Check.that(stored.get(id).status.isFinal(), "a row without its request was inserted final: %s", id);
            writtenTwice++;
        }
        List<FinalStateReached> finalStates = new ArrayList<>();
        for (PaymentFacts fact : facts) {
            boolean isNew = inserted.contains(fact.paymentId());
            if (isNew && fact.request() != null) {
                requestsVisible++;
            }
            if (isNew && fact.request() != null && fact.outcome() != null) {
                writtenOnce++;
            }
            if (fact.outcome() != null && (isNew || finalized.contains(fact.paymentId()))) {
                finalStates.add(new FinalStateReached(
                        fact.outcome().status(),
                        fact.acceptedAt(),
                        fact.outcome().finalAt()));
            }
        }
        Check.that(
                finalStates.size() == stats.finalized,
                "every finalized payment is reported once: %d of %d",
                finalStates.size(),
                stats.finalized);
        return new Applied(
                inserted.size(),
                stats.finalized,
                filled.size(),
                redelivered,
                List.copyOf(alarms),
                requestsVisible,
                List.copyOf(finalStates),
                new Writes(writtenOnce, writtenTwice));
    }

    /**
     * Compares each payment that already existed with its stored row: other parties, or another final
     * state than the stored one, is an integrity alarm (never an overwrite); a payment this poll neither
     * finalized nor filled, and that agrees, is a redelivery.
     *
     * @param alarms receives the alarms
     * @return how many payments were redelivered
     */
    private static int judgeExisting(
            List<PaymentFacts> existing,
            Map<Id128, Stored> stored,
            Set<Id128> finalized,
            Set<Id128> filled,
            List<IntegrityAlarm> alarms) {
        int redelivered = 0;
        for (PaymentFacts fact : existing) {
            Stored row = stored.get(fact.paymentId());
            Check.that(row != null, "payment %s conflicted on insert, so it exists", fact.paymentId());
            if (!fact.sameParties(row.payer, row.payee, row.amountCentavos)) {
                alarms.add(IntegrityAlarm.inconsistentEvent(
                        fact.paymentId().toString(),
                        PaymentFacts.describeParties(row.payer, row.payee, row.amountCentavos),
                        fact.describeParties()));
            }
            boolean agrees = finalized.contains(fact.paymentId()) || agreesWithFinalRow(fact, row, alarms);
            if (agrees && !finalized.contains(fact.paymentId()) && !filled.contains(fact.paymentId())) {
                redelivered++;
            }
        }
        return redelivered;
    }

    /**
     * A payment this poll did not finalize: if it has an outcome, the row was final already, and the two
     * must be the same outcome (else an alarm).
     */
    private static boolean agreesWithFinalRow(PaymentFacts fact, Stored row, List<IntegrityAlarm> alarms) {
        FinalState outcome = fact.outcome();
        if (outcome == null) {
            return true;
        }
        Check.that(row.status.isFinal(), "payment %s is final after the finalize statement", fact.paymentId());
        if (outcome.sameOutcomeAs(row.status, row.reason)) {
            return true;
        }
        alarms.add(IntegrityAlarm.conflictingOutcome(
                fact.paymentId().toString(), FinalState.describe(row.status, row.reason), outcome.describe()));
        return false;
    }

    private static Set<Id128> insertNew(Connection c, List<PaymentFacts> facts, Stats stats) throws SQLException {
        Set<Id128> inserted = new HashSet<>();
        try (PreparedStatement statement = c.prepareStatement(INSERT_NEW)) {
            int p = 0;
            statement.setArray(++p, uuids(c, facts, PaymentFacts::paymentId));
            statement.setArray(++p, uuids(c, facts, PaymentFacts::payerAccountId));
            statement.setArray(++p, uuids(c, facts, PaymentFacts::payeeAccountId));
            statement.setArray(++p, array(c, "integer", facts, f -> ispb(f.payerAccountId())));
            statement.setArray(++p, array(c, "integer", facts, f -> ispb(f.payeeAccountId())));
            statement.setArray(++p, array(c, "bigint", facts, PaymentFacts::amountCentavos));
            statement.setArray(
                    ++p,
                    array(
                            c,
                            "text",
                            facts,
                            f -> f.request() == null ? null : f.request().currency()));
            statement.setArray(
                    ++p,
                    array(
                            c,
                            "text",
                            facts,
                            f -> f.request() == null ? null : f.request().description()));
            statement.setArray(
                    ++p,
                    array(
                            c,
                            "text",
                            facts,
                            f -> f.request() == null ? null : f.request().endToEndId()));
            statement.setArray(++p, array(c, "bigint", facts, f -> micros(f.acceptedAt())));
            statement.setArray(++p, array(c, "boolean", facts, f -> f.request() != null));
            statement.setArray(
                    ++p,
                    array(
                            c,
                            "text",
                            facts,
                            f -> f.outcome() == null
                                    ? PaymentStatus.ACCEPTED.name()
                                    : f.outcome().status().name()));
            statement.setArray(
                    ++p,
                    array(
                            c,
                            "text",
                            facts,
                            f -> f.outcome() == null ? null : f.outcome().reason()));
            statement.setArray(
                    ++p,
                    array(
                            c,
                            "text",
                            facts,
                            f -> f.outcome() == null ? null : f.outcome().detail()));
            statement.setArray(
                    ++p,
                    array(
                            c,
                            "bigint",
                            facts,
                            f -> f.outcome() == null ? null : micros(f.outcome().finalAt())));
            setReturnLinks(c, statement, p, facts);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    Id128 paymentId = Id128.fromUuid(rows.getObject("payment_id", UUID.class));
                    inserted.add(paymentId);
                    stats.inserted = stats.inserted.plus(
                            paymentId,
                            Id128.fromUuid(rows.getObject("payer_account_id", UUID.class)),
                            Id128.fromUuid(rows.getObject("payee_account_id", UUID.class)),
                            rows.getLong("amount_centavos"));
                    PaymentStatus status = PaymentStatus.valueOf(rows.getString("status"));
                    stats.add(status, 1);
                    if (status.isFinal()) {
                        stats.finalized(rows.getObject("final_at", OffsetDateTime.class), rows.getBoolean("is_return"));
                    }
                    if (status == PaymentStatus.SETTLED) {
                        stats.settled(
                                Id128.fromUuid(rows.getObject("payer_account_id", UUID.class)),
                                Id128.fromUuid(rows.getObject("payee_account_id", UUID.class)),
                                rows.getLong("amount_centavos"),
                                rows.getObject("final_at", OffsetDateTime.class));
                    }
                }
            }
        }
        return inserted;
    }

    private static Set<Id128> finalize(Connection c, List<PaymentFacts> facts, Stats stats, Map<Id128, Stored> stored)
            throws SQLException {
        Set<Id128> finalized = new HashSet<>();
        if (facts.isEmpty()) {
            return finalized;
        }
        try (PreparedStatement statement = c.prepareStatement(FINALIZE)) {
            int p = 0;
            statement.setArray(++p, uuids(c, facts, PaymentFacts::paymentId));
            statement.setArray(
                    ++p, array(c, "text", facts, f -> f.outcome().status().name()));
            statement.setArray(++p, array(c, "text", facts, f -> f.outcome().reason()));
            statement.setArray(++p, array(c, "text", facts, f -> f.outcome().detail()));
            statement.setArray(
                    ++p, array(c, "bigint", facts, f -> micros(f.outcome().finalAt())));
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    Stored row = Stored.of(rows);
                    finalized.add(row.paymentId);
                    stored.put(row.paymentId, row);
                    stats.add(PaymentStatus.ACCEPTED, -1);
                    stats.add(row.status, 1);
                    OffsetDateTime finalAt = rows.getObject("final_at", OffsetDateTime.class);
                    stats.finalized(finalAt, rows.getBoolean("is_return"));
                    if (row.status == PaymentStatus.SETTLED) {
                        stats.settled(row.payer, row.payee, row.amountCentavos, finalAt);
                    }
                }
            }
        }
        return finalized;
    }

    /** The two last parameters of a statement: each payment's return link (its original, its reason), or nulls. */
    private static void setReturnLinks(Connection c, PreparedStatement statement, int p, List<PaymentFacts> facts)
            throws SQLException {
        statement.setArray(
                p + 1,
                c.createArrayOf(
                        "uuid",
                        facts.stream()
                                .map(f -> f.returnOf() == null
                                        ? null
                                        : f.returnOf().originalPaymentId().toUuid())
                                .toArray()));
        statement.setArray(
                p + 2,
                array(
                        c,
                        "text",
                        facts,
                        f -> f.returnOf() == null ? null : f.returnOf().reason()));
    }

    private static Set<Id128> fillRequests(Connection c, List<PaymentFacts> facts, Map<Id128, Stored> stored)
            throws SQLException {
        Set<Id128> filled = new HashSet<>();
        if (facts.isEmpty()) {
            return filled;
        }
        try (PreparedStatement statement = c.prepareStatement(FILL_REQUESTS)) {
            int p = 0;
            statement.setArray(++p, uuids(c, facts, PaymentFacts::paymentId));
            statement.setArray(++p, array(c, "text", facts, f -> f.request().currency()));
            statement.setArray(++p, array(c, "text", facts, f -> f.request().description()));
            statement.setArray(++p, array(c, "text", facts, f -> f.request().endToEndId()));
            setReturnLinks(c, statement, p, facts);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    Stored row = Stored.of(rows);
                    filled.add(row.paymentId);
                    stored.put(row.paymentId, row);
                }
            }
        }
        return filled;
    }

    private static void readStored(Connection c, List<Id128> ids, Map<Id128, Stored> stored) throws SQLException {
        if (ids.isEmpty()) {
            return;
        }
        try (PreparedStatement statement = c.prepareStatement(READ_STORED)) {
            statement.setArray(
                    1, c.createArrayOf("uuid", ids.stream().map(Id128::toUuid).toArray(UUID[]::new)));
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    Stored row = Stored.of(rows);
                    stored.put(row.paymentId, row);
                }
            }
        }
    }

    private static void addFlows(Connection c, Stats stats) throws SQLException {
        if (!stats.accountFlows.isEmpty()) {
            try (PreparedStatement statement = c.prepareStatement(ADD_ACCOUNT_FLOWS)) {
                statement.setArray(
                        1,
                        c.createArrayOf(
                                "uuid",
                                stats.accountFlows.keySet().stream()
                                        .map(Id128::toUuid)
                                        .toArray(UUID[]::new)));
                statement.setArray(
                        2,
                        c.createArrayOf(
                                "bigint",
                                stats.accountFlows.values().stream()
                                        .map(f -> f[0])
                                        .toArray(Long[]::new)));
                statement.setArray(
                        3,
                        c.createArrayOf(
                                "bigint",
                                stats.accountFlows.values().stream()
                                        .map(f -> f[1])
                                        .toArray(Long[]::new)));
                statement.executeUpdate();
            }
        }
        if (!stats.bankFlows.isEmpty() || !stats.positions.isEmpty()) {
            try (PreparedStatement statement = c.prepareStatement(ADD_BANK_FLOWS)) {
                int p = 0;
                statement.setArray(
                        ++p,
                        c.createArrayOf(
                                "integer",
                                stats.positions.keySet().stream()
                                        .map(BankDay::ispb)
                                        .toArray(Integer[]::new)));
                statement.setArray(
                        ++p,
                        c.createArrayOf(
                                "date",
                                stats.positions.keySet().stream()
                                        .map(d -> Date.valueOf(d.day()))
                                        .toArray()));
                for (int field = 0; field < BankDay.FIELDS; field++) {
                    int f = field;
                    statement.setArray(
                            ++p,
                            c.createArrayOf(
                                    "bigint",
                                    stats.positions.values().stream()
                                            .map(v -> v[f])
                                            .toArray(Long[]::new)));
                }
                statement.setArray(
                        ++p, c.createArrayOf("integer", stats.bankFlows.keySet().toArray(Integer[]::new)));
                statement.setArray(
                        ++p,
                        c.createArrayOf(
                                "bigint",
                                stats.bankFlows.values().stream().map(f -> f[0]).toArray(Long[]::new)));
                statement.setArray(
                        ++p,
                        c.createArrayOf(
                                "bigint",
                                stats.bankFlows.values().stream().map(f -> f[1]).toArray(Long[]::new)));
                statement.executeUpdate();
            }
        }
    }

    private static void addStats(Connection c, Stats stats) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(ADD_STATS)) {
            int p = 0;
            statement.setInt(++p, Math.toIntExact(stats.inserted.payments()));
            statement.setLong(++p, stats.inserted.amountCentavos());
            statement.setLong(++p, stats.inserted.fingerprint());
            statement.setInt(++p, Math.toIntExact(stats.inserted.payments()));
            statement.setLong(++p, stats.delta(PaymentStatus.ACCEPTED));
            statement.setLong(++p, stats.delta(PaymentStatus.SETTLED));
            statement.setLong(++p, stats.delta(PaymentStatus.REJECTED));
            statement.setLong(++p, stats.delta(PaymentStatus.EXPIRED));
            statement.setLong(++p, stats.returnsFinalized);
            if (stats.maxFinalAt == null) {
                statement.setNull(++p, Types.BIGINT);
            } else {
                statement.setLong(++p, micros(stats.maxFinalAt));
            }
            int updated = statement.executeUpdate();
            Check.that(updated == 1, "the payment_stats row exists (migration V1)");
        }
    }

    private static Integer ispb(Id128 account) {
        return ChartOfAccounts.bankOf(account).map(BankId::ispb).orElse(null);
    }

    static long micros(Instant instant) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
    }

    private static Array uuids(Connection c, List<PaymentFacts> facts, Function<PaymentFacts, Id128> field)
            throws SQLException {
        return c.createArrayOf(
                "uuid", facts.stream().map(f -> field.apply(f).toUuid()).toArray(UUID[]::new));
    }

    private static Array array(
            Connection c, String type, List<PaymentFacts> facts, Function<PaymentFacts, Object> field)
            throws SQLException {
        Object[] values = new Object[facts.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = field.apply(facts.get(i));
        }
        return c.createArrayOf(type, values);
    }

    /** A bank's UTC day, in the order concurrent consumers lock its {@code bank_day_positions} row. */
    private record BankDay(int ispb, LocalDate day) implements Comparable<BankDay> {
        static final int SENT = 0;
        static final int RECEIVED = 2;
        static final int ON_US = 4;
        /** Each position's amount, then its count. */
        static final int FIELDS = 6;

        @Override
        public int compareTo(BankDay other) {
            int byBank = Integer.compare(ispb, other.ispb);
            return byBank != 0 ? byBank : day.compareTo(other.day);
        }
    }

    /** A payment row as stored, for comparing with this poll's facts. */
    private record Stored(
            Id128 paymentId, Id128 payer, Id128 payee, long amountCentavos, PaymentStatus status, String reason) {

        static Stored of(ResultSet row) throws SQLException {
            return new Stored(
                    Id128.fromUuid(row.getObject("payment_id", UUID.class)),
                    Id128.fromUuid(row.getObject("payer_account_id", UUID.class)),
                    Id128.fromUuid(row.getObject("payee_account_id", UUID.class)),
                    row.getLong("amount_centavos"),
                    PaymentStatus.valueOf(row.getString("status")),
                    row.getString("reason"));
        }
    }

    /**
     * This poll's changes to the counts per status, to the newest final time and to the settled totals of the
     * accounts ({outgoing, incoming}) and of the banks ({sent, received}) its settled payments moved.
     */
    private static final class Stats {
        final Map<PaymentStatus, Long> deltas = new EnumMap<>(PaymentStatus.class);
        final Map<Id128, long[]> accountFlows = new LinkedHashMap<>();
        final Map<Integer, long[]> bankFlows = new LinkedHashMap<>();
        /** Per bank and UTC day: {sent, sent count, received, received count, on-us, on-us count} (see V4). */
        final Map<BankDay, long[]> positions = new TreeMap<>();

        int finalized;
        /** Of {@link #finalized}, the returns (devoluções): payment_stats counts them apart too. */
        int returnsFinalized;

        Instant maxFinalAt;
        /** The rows this poll inserted, as the reconciliation will add them up (see {@link ProjectionDigest}). */
        ProjectionDigest inserted = ProjectionDigest.NONE;

        /**
         * A payment that became SETTLED in this poll: its statement's DEBIT and CREDIT, its banks' interbank flow, and
         * its banks' positions of its UTC day (sent to another bank or outside the id scheme, received from another
         * bank or from outside it, on-us).
         */
        void settled(Id128 payer, Id128 payee, long amountCentavos, OffsetDateTime finalAt) {
            accountFlows.computeIfAbsent(payer, id -> new long[2])[0] += amountCentavos;
            accountFlows.computeIfAbsent(payee, id -> new long[2])[1] += amountCentavos;
            Integer payerBank = ispb(payer);
            Integer payeeBank = ispb(payee);
            if (payerBank != null && payeeBank != null && !payerBank.equals(payeeBank)) {
                bankFlows.computeIfAbsent(payerBank, ispb -> new long[2])[0] += amountCentavos;
                bankFlows.computeIfAbsent(payeeBank, ispb -> new long[2])[1] += amountCentavos;
            }
            LocalDate day = finalAt.withOffsetSameInstant(ZoneOffset.UTC).toLocalDate();
            if (payerBank != null) {
                int sentOrOnUs = payerBank.equals(payeeBank) ? BankDay.ON_US : BankDay.SENT;
                position(payerBank, day, sentOrOnUs, amountCentavos);
            }
            if (payeeBank != null && !payeeBank.equals(payerBank)) {
                position(payeeBank, day, BankDay.RECEIVED, amountCentavos);
            }
        }

        private void position(int ispb, LocalDate day, int field, long amountCentavos) {
            long[] position = positions.computeIfAbsent(new BankDay(ispb, day), key -> new long[BankDay.FIELDS]);
            position[field] += amountCentavos;
            position[field + 1]++;
        }

        void add(PaymentStatus status, long delta) {
            deltas.merge(status, delta, Long::sum);
        }

        void finalized(OffsetDateTime at, boolean isReturn) {
            finalized++;
            returnsFinalized += isReturn ? 1 : 0;
            Instant instant = at.toInstant();
            if (maxFinalAt == null || instant.isAfter(maxFinalAt)) {
                maxFinalAt = instant;
            }
        }

        long delta(PaymentStatus status) {
            return deltas.getOrDefault(status, 0L);
        }
    }
}
