package io.pagora.local.checks;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Ledger;
import io.pagora.local.servers.LocalPostgres;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * Held funds reconciled with the infraction reports (docs/med.md): every bank's fraud holds account holds, pending,
 * exactly what the reports still holding say they hold at that bank (open, accepted or escalated, and the shares a
 * refund could not pay, not lapsed), and nothing posted: a hold is voided (released, or freed for its refund) or
 * lapses, and never lands. So held money is neither spent nor lost, and a report that says it holds money has it held
 * in the ledger. A report between two steps (its holds being taken, or its refund under way) may hold anything up to
 * what its trace says, and no less than nothing: it widens its bank's band rather than false-alarming. The ledger is
 * asked, never the reports' word about it. With no report filed and no fraud holds account, nothing is held: that
 * passes, saying so.
 */
public final class HoldsCheck {

    /** Trace rows read at most: a bound on the check's memory (a report has at most 64). */
    static final int ROWS_MAX = 1_000_000;

    private HoldsCheck() {}

    public static InvariantChecks.Verdict run(DataSource database, String schema, Ledger ledger, Instant now)
            throws SQLException {
        Map<BankId, Long> reported = new TreeMap<>(java.util.Comparator.comparingInt(BankId::ispb));
        Map<BankId, Long> uncertain = new TreeMap<>(java.util.Comparator.comparingInt(BankId::ispb));
        int[] reports = {0};
        read(database, schema, now, reported, uncertain, reports);
        List<Id128> banks = new ArrayList<>();
        for (Id128 reserve : reserves(database, schema)) {
            banks.add(reserve);
        }
        Map<BankId, Account> holds = new TreeMap<>(java.util.Comparator.comparingInt(BankId::ispb));
        for (int from = 0; from < banks.size(); from += Ledger.BATCH_SIZE_MAX) {
            for (Account account :
                    ledger.lookupAccounts(banks.subList(from, Math.min(banks.size(), from + Ledger.BATCH_SIZE_MAX)))) {
                holds.put(ChartOfAccounts.bankOf(account.id()).orElseThrow(), account);
            }
        }
        List<String> problems = new ArrayList<>();
        long heldTotal = 0;
        for (Map.Entry<BankId, Account> hold : holds.entrySet()) {
            Account account = hold.getValue();
            long expected = reported.getOrDefault(hold.getKey(), 0L);
            long band = uncertain.getOrDefault(hold.getKey(), 0L);
            heldTotal += account.creditsPending();
            if (account.creditsPending() < expected || account.creditsPending() > expected + band) {
                problems.add("bank " + hold.getKey() + ": its fraud holds account holds " + account.creditsPending()
                        + " pending, its reports say " + expected
                        + (band == 0 ? "" : " (to " + (expected + band) + " with the reports between two steps)"));
            }
            if (account.creditsPosted() != 0 || account.debitsPosted() != 0 || account.debitsPending() != 0) {
                problems.add("bank " + hold.getKey() + ": its fraud holds account moved money (posted credits "
                        + account.creditsPosted() + ", posted debits " + account.debitsPosted() + ", pending debits "
                        + account.debitsPending() + "): a hold never lands");
            }
        }
        for (Map.Entry<BankId, Long> claim : reported.entrySet()) { // a band alone may be 0 in the ledger
            if (claim.getValue() > 0 && !holds.containsKey(claim.getKey())) {
                problems.add("bank " + claim.getKey() + ": its reports hold " + claim.getValue()
                        + ", and the ledger has no fraud holds account for it");
            }
        }
        List<String> listed = new ArrayList<>(problems.subList(0, Math.min(problems.size(), 10)));
        if (problems.size() > 10) {
            listed.add("… and " + (problems.size() - 10) + " more");
        }
        String summary = reports[0] == 0 && holds.isEmpty()
                ? "no infraction report filed, no fraud holds account: nothing held"
                : reports[0] + " infraction reports; " + heldTotal + " centavos held in " + holds.size()
                        + " fraud holds accounts, each exactly what its bank's reports still hold, nothing posted";
        return new InvariantChecks.Verdict("(f) held funds = reports' holds", problems.isEmpty(), summary, listed);
    }

    /** The fraud holds account of every bank the switch knows. */
    private static List<Id128> reserves(DataSource database, String schema) throws SQLException {
        List<Id128> ids = new ArrayList<>();
        try (Connection connection = database.getConnection();
                PreparedStatement query = connection.prepareStatement(
                        "SELECT ispb FROM " + LocalPostgres.quoteIdentifier(schema) + ".banks ORDER BY ispb");
                ResultSet rows = query.executeQuery()) {
            while (rows.next()) {
                ids.add(ChartOfAccounts.fraudHolds(new BankId(rows.getInt(1))));
            }
        }
        return ids;
    }

    /** What the reports still holding hold, by the bank of each held account; and how many reports there are. */
    private static void read(
            DataSource database,
            String schema,
            Instant now,
            Map<BankId, Long> reported,
            Map<BankId, Long> uncertain,
            int[] reports)
            throws SQLException {
        String quoted = LocalPostgres.quoteIdentifier(schema);
        try (Connection connection = database.getConnection()) {
            try (PreparedStatement count =
                            connection.prepareStatement("SELECT count(*) FROM " + quoted + ".infraction_reports");
                    ResultSet rows = count.executeQuery()) {
                rows.next();
                reports[0] = rows.getInt(1);
            }
            // Refused refund shares keep their holds (RefundOutcome.refused): the outcomes other than these three.
            try (PreparedStatement query = connection.prepareStatement("SELECT t.account_id, t.held_centavos,"
                    + " r.status IN ('HOLDING', 'REFUNDING') FROM " + quoted + ".infraction_trace t JOIN " + quoted
                    + ".infraction_reports r USING (report_id) WHERE r.hold_until > ? AND t.held_centavos > 0 AND"
                    + " (r.status IN ('HOLDING', 'OPEN', 'ACCEPTED', 'ESCALATED', 'REFUNDING') OR (r.status ="
                    + " 'REFUNDED' AND t.refund_outcome IS NOT NULL AND t.refund_outcome NOT IN ('RESERVED',"
                    + " 'HOLD_LAPSED', 'HOLD_RELEASED'))) LIMIT " + (ROWS_MAX + 1))) {
                query.setTimestamp(1, Timestamp.from(now));
                int read = 0;
                try (ResultSet rows = query.executeQuery()) {
                    while (rows.next()) {
                        Id128 account = Id128.fromUuid(rows.getObject(1, UUID.class));
                        (rows.getBoolean(3) ? uncertain : reported)
                                .merge(ChartOfAccounts.bankOf(account).orElseThrow(), rows.getLong(2), Long::sum);
                        read++;
                    }
                }
                if (read > ROWS_MAX) {
                    throw new IllegalStateException(
                            "more than " + ROWS_MAX + " held trace rows: the check reads" + " at most that many");
                }
            }
        }
    }
}
