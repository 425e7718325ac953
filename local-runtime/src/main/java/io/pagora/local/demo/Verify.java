package io.pagora.local.demo;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.Transfer;
import io.pagora.ledger.port.invariants.LedgerBooks;
import io.pagora.local.checks.ConsistentCut;
import io.pagora.local.checks.DirectoryCheck;
import io.pagora.local.checks.HoldsCheck;
import io.pagora.local.checks.InvariantChecks;
import io.pagora.local.checks.LedgerAccountSet;
import io.pagora.local.readside.OutcomeLog;
import io.pagora.local.readside.ReadModel;
import io.pagora.local.readside.ReadSide;
import io.pagora.local.runfiles.AcceptedPayments;
import io.pagora.local.runfiles.DemoAccounts;
import io.pagora.local.servers.LocalPostgres;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.LegId;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.SettlementPlan;
import io.pagora.settlement.invariants.PixBooks;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;
import javax.sql.DataSource;

/**
 * The demo report's four invariant checks on a platform that is running, at any time, also while payments
 * are in flight ({@code infra/local/pagora verify}). Exits 1 when a check fails.
 *
 * <p><b>Which accounts.</b> The ledger's whole account set ({@link LedgerAccountSet}: {@code query_accounts} walked
 * in creation order, at most {@code account-pages-max} pages of 8,189; a ledger holding more fails (a), it is never
 * judged in part), plus the seeded ones (the accounts file) and every bank registered with payment-api
 * ({@code payment_api.banks}), which must all be in it: {@link LedgerAccountSet#judged}, the demo report's set too,
 * so the returnable accounts and returns control a settled return moves money on are judged like the rest. So a bank registered or a customer opened since seeding is
 * judged whether or not a payment names it. A funding made since seeding (the README's walk-through funds a reserve
 * and a customer) is not in the accounts file: it is taken from the ledger, as the part of a reserve's or a
 * customer's posted credits that no settled payment explains (never less than what was seeded). Fundings are the only
 * credits of those accounts besides payments, and each has its exact counterpart, which stays judged: the central
 * bank's debits (a reserve funding) and the bank transit's debits (a customer funding). Nothing else is inferred:
 * a debit of a customer or a reserve, or any move on an account outside the chart of accounts, must be a payment's.
 *
 * <p><b>When.</b> The ledger and the read model cannot be read at one instant. The ledger's accounts are read (the
 * walk: one request up to 8,189 accounts), then, after a pause ({@code quiet-seconds}, longer than the read model's usual lag), the read model and
 * the outcomes topic. The balances are judged at a {@link ConsistentCut}: the ledger timestamp up to which the read
 * model's settled payments explain that ledger read exactly; payments posted after it are left out of the balances,
 * and every account is judged, the banks' reserve and transit too, however busy. Without an exact cut it reads again,
 * at most {@link #CUT_ATTEMPTS_MAX} times, then judges at the closest cut (the disagreeing accounts fail (c)).
 * A payment accepted less than {@code in-flight-seconds} ago (its pending timeout plus a margin) may not be final
 * yet: in flight; an older one that is not final fails (d), whoever sent it. Payments in the read model that the
 * load generator's log does not name are counted, not failed: a running platform may serve other clients too.
 *
 * <pre>
 *   java -jar local-runtime.jar verify
 *       --accounts=var/demo/accounts.tsv         the seeded banks and customers (see DemoAccounts)
 *       [--accepted=FILE[,FILE...]]              what the load generator was told, if it ran (see AcceptedPayments)
 *       [--in-flight-seconds=60] [--quiet-seconds=3] [--reporting-schema=reporting]
 *       [--participants-schema=payment_api] [--bootstrap-servers=127.0.0.1:9092]   (the outcomes topic)
 *       [--account-pages-max=128]                the bound on the walk of the ledger's accounts (8,189 a page)
 *       [connection options: see ReadSide]
 * </pre>
 */
public final class Verify {

    /**
     * Reads until one has an exact {@link ConsistentCut}: a read model lagging a moment behind the ledger, or (on
     * the PostgreSQL ledger) two commits out of timestamp order, spoil one read, not three; a disagreement spoils all.
     */
    static final int CUT_ATTEMPTS_MAX = 3;

    private Verify() {}

    /**
     * {@code accepted} may be empty: no load generator's answers to check against. {@code accountWalk}: how far the
     * walk of the ledger's account set may go before verify fails rather than judge part of it.
     */
    public record Inputs(
            Path accounts,
            List<Path> accepted,
            String reportingSchema,
            String participantsSchema,
            Duration inFlight,
            Duration quiet,
            LedgerAccountSet.Bound accountWalk) {}

    public static void main(String[] args) throws Exception {
        VerifyOptions options = VerifyOptions.parse(args);
        DemoReport.Result result;
        try (ReadSide platform = ReadSide.open(options.readSide(), "verify")) {
            result = run(
                    options.inputs(),
                    platform.dataSource(),
                    platform.ledger(),
                    Clock.systemUTC(),
                    () -> OutcomeLog.read(options.bootstrap()));
        }
        result.lines().forEach(System.out::println);
        System.exit(result.passed() ? 0 : 1);
    }

    /** {@code outcomes}: the outcomes topic, read after the read model. */
    public static DemoReport.Result run(
            Inputs inputs, DataSource database, Ledger ledger, Clock clock, Supplier<OutcomeLog> outcomes)
            throws Exception {
        DemoAccounts seeded = DemoAccounts.read(inputs.accounts());
        // The answers first: a payment in the read model must have been answered before it was read.
        AcceptedPayments accepted = AcceptedPayments.read(inputs.accepted());
        Set<BankId> banks = new LinkedHashSet<>(seeded.reserveFundings().keySet());
        banks.addAll(registeredBanks(database, inputs.participantsSchema()));
        Set<Id128> customers = new LinkedHashSet<>(seeded.customerFundings().keySet());
        Set<Id128> others = new LinkedHashSet<>();
        LedgerAccountSet accountSet = null;
        Map<Id128, Account> first = Map.of();
        List<ReadModel.Row> rows = List.of();
        List<ConsistentCut.Settled> settled = List.of();
        ConsistentCut.Cut cut = null;
        Set<Id128> newcomers = new LinkedHashSet<>();
        int attempts = 0;
        while (attempts < CUT_ATTEMPTS_MAX && (cut == null || !cut.exact() || !newcomers.isEmpty())) {
            attempts++;
            newcomers.clear();
            // Accounts never go away: each walk can only add banks and customers opened meanwhile.
            accountSet = LedgerAccountSet.walk(ledger, inputs.accountWalk());
            banks.addAll(accountSet.banks());
            customers.addAll(accountSet.customers());
            others.addAll(accountSet.others());
            first = firstRead(ledger, accountSet, accountSet.judged(accountIds(banks, customers)));
            Thread.sleep(inputs.quiet().toMillis());
            rows = ReadModel.load(database, inputs.reportingSchema());
            // A customer opened and paid since the walk: read at the next attempt.
            for (ReadModel.Row row : rows) {
                for (Id128 party : List.of(row.payer(), row.payee())) {
                    if (ChartOfAccounts.isCustomer(party) && customers.add(party)) {
                        newcomers.add(party);
                    }
                }
            }
            settled = settled(ledger, rows);
            cut = ConsistentCut.find(first.values(), settled);
        }
        OutcomeLog outcomeLog = outcomes.get();
        Instant readAt = clock.instant();
        // Newcomers of the last attempt: read now, not judged (their payments are later than the cut's read).
        Map<Id128, Account> judgedAt = new LinkedHashMap<>(first);
        judgedAt.putAll(PixBooks.read(ledger, List.copyOf(newcomers)).found());
        List<Id128> ids = accountSet.judged(accountIds(banks, customers));
        LedgerBooks books = LedgerBooks.read(
                requested -> requested.stream()
                        .map(judgedAt::get)
                        .filter(Objects::nonNull)
                        .toList(),
                ids,
                PixBooks::describe);
        DemoAccounts accounts =
                withFundingsSinceSeeding(seeded, banks, customers, books.found(), rows, cut.settledAfter());
        InvariantChecks.InFlight inFlight =
                new InvariantChecks.InFlight(readAt, inputs.inFlight(), newcomers, cut.settledAfter());
        List<InvariantChecks.Verdict> verdicts = new ArrayList<>(
                new InvariantChecks(ledger, accounts, rows, outcomeLog, accepted, inFlight, accountSet, books)
                        .runAll());
        verdicts.add(DirectoryCheck.run(database, inputs.participantsSchema(), ledger));
        verdicts.add(HoldsCheck.run(database, inputs.participantsSchema(), ledger, readAt));

        long finals = rows.stream().filter(ReadModel.Row::isFinal).count();
        List<String> out = new ArrayList<>();
        out.add("==================== Pagora verify (running platform) ====================");
        out.add(String.format(
                "ledger backend: %s   read model: %s.payments (%d payments, %d final, %d not yet)",
                ledger.backendName(), inputs.reportingSchema(), rows.size(), finals, rows.size() - finals));
        out.add(String.format(
                "accounts: the ledger's account set (%s) and the seeded ones: %d banks (%d seeded, the others "
                        + "registered since), %d customers (%d seeded, the others opened since)%s; fundings since seeding taken "
                        + "from the ledger: %s",
                accountSet.summary(),
                banks.size(),
                seeded.reserveFundings().size(),
                customers.size(),
                seeded.customerFundings().size(),
                others.isEmpty() ? "" : ", " + others.size() + " accounts outside the chart of accounts",
                fundingsSinceSeeding(seeded, accounts)));
        out.add(String.format(
                "%s ledger timestamp %d (ledger read, %d s pause, read model; read %d time(s)): %d of %d "
                        + "settled payments posted up to it, %d after it (the next verify judges those); all %d accounts judged "
                        + "at the cut%s",
                cut.exact()
                        ? "consistent cut: the last posting the ledger read holds,"
                        : "NO EXACT CUT "
                                + "(" + cut.unexplained()
                                + " centavos of payment legs in the ledger read that no prefix of the read "
                                + "model's settled payments explains): judged at the closest,",
                cut.timestamp(),
                inputs.quiet().toSeconds(),
                attempts,
                cut.judged(),
                settled.size(),
                cut.settledAfter().size(),
                ids.size() - newcomers.size(),
                newcomers.isEmpty()
                        ? ""
                        : ", " + newcomers.size() + " customers opened and paid meanwhile are in flight"));
        out.add(String.format(
                "a payment accepted less than %d s ago may be in flight",
                inputs.inFlight().toSeconds()));
        out.add(
                inputs.accepted().isEmpty()
                        ? "load generator answers: none (no --accepted log): (d) checks the read model alone"
                        : accepted.summary() + " " + inputs.accepted());
        out.add("");
        out.addAll(DemoReport.verdictLines(verdicts));
        out.add("==========================================================================");
        return new DemoReport.Result(out, verdicts);
    }

    /** Central bank, then each bank's reserve and transit, then the customers: the rest is the walk's. */
    private static List<Id128> accountIds(Set<BankId> banks, Set<Id128> customers) {
        List<Id128> ids = new ArrayList<>();
        ids.add(ChartOfAccounts.centralBank());
        for (BankId bank : banks) {
            ids.add(ChartOfAccounts.reserve(bank));
            ids.add(ChartOfAccounts.transit(bank));
        }
        ids.addAll(customers);
        return ids;
    }

    /**
     * The ledger read the cut is found for: the walk's balances, and the accounts it did not reach (a seeded or
     * registered one the ledger lacks, which (a) reports; or, past the bound, ones (a) fails for) looked up now.
     */
    private static Map<Id128, Account> firstRead(Ledger ledger, LedgerAccountSet accountSet, List<Id128> ids) {
        Map<Id128, Account> read = new LinkedHashMap<>(accountSet.accounts());
        List<Id128> unwalked = ids.stream().filter(id -> !read.containsKey(id)).toList();
        if (!unwalked.isEmpty()) {
            read.putAll(PixBooks.read(ledger, unwalked).found());
        }
        return read;
    }

    /**
     * The accounts file's banks and customers plus those opened since, each reserve and customer funded with what its
     * posted credits hold beyond the settled payments judged (never less than seeded, so a shortfall stays a mismatch).
     */
    static DemoAccounts withFundingsSinceSeeding(
            DemoAccounts seeded,
            Set<BankId> banks,
            Set<Id128> customers,
            Map<Id128, Account> books,
            List<ReadModel.Row> rows,
            Set<UUID> settledAfterCut) {
        Map<Id128, Long> paidIn = new HashMap<>();
        for (ReadModel.Row row : rows) {
            if (!ReadModel.SETTLED.equals(row.status()) || settledAfterCut.contains(row.paymentId())) {
                continue;
            }
            Payment payment;
            try {
                payment = new Payment(
                        new PaymentId(Id128.fromUuid(row.paymentId())), row.payer(), row.payee(), row.amountCentavos());
            } catch (IllegalArgumentException e) {
                continue; // (c) reports it
            }
            for (SettlementPlan.Leg leg : SettlementPlan.of(payment).legs()) {
                paidIn.merge(leg.credit(), payment.amountCentavos(), Math::addExact);
            }
        }
        Map<BankId, Long> reserves = new LinkedHashMap<>();
        for (BankId bank : banks) {
            Id128 reserve = ChartOfAccounts.reserve(bank);
            reserves.put(
                    bank,
                    funded(seeded.reserveFundings().getOrDefault(bank, 0L), books.get(reserve), paidIn.get(reserve)));
        }
        Map<Id128, Long> fundedCustomers = new LinkedHashMap<>();
        for (Id128 customer : customers) {
            fundedCustomers.put(
                    customer,
                    funded(
                            seeded.customerFundings().getOrDefault(customer, 0L),
                            books.get(customer),
                            paidIn.get(customer)));
        }
        return new DemoAccounts(reserves, fundedCustomers);
    }

    private static long funded(long seeded, Account account, Long paidIn) {
        if (account == null) {
            return seeded; // (a) reports an account the ledger lacks
        }
        return Math.max(seeded, account.creditsPosted() - (paidIn == null ? 0 : paidIn));
    }

    private static String fundingsSinceSeeding(DemoAccounts seeded, DemoAccounts judged) {
        long reserves = 0;
        long customers = 0;
        for (Map.Entry<BankId, Long> entry : judged.reserveFundings().entrySet()) {
            reserves += entry.getValue() - seeded.reserveFundings().getOrDefault(entry.getKey(), 0L);
        }
        for (Map.Entry<Id128, Long> entry : judged.customerFundings().entrySet()) {
            customers += entry.getValue() - seeded.customerFundings().getOrDefault(entry.getKey(), 0L);
        }
        return reserves + " centavos to reserves, " + customers + " to customers";
    }

    /** The read model's SETTLED payments whose every post leg the ledger holds, with the last leg's timestamp. */
    static List<ConsistentCut.Settled> settled(Ledger ledger, List<ReadModel.Row> rows) {
        List<ConsistentCut.Settled> settled = new ArrayList<>();
        int chunkMax = Ledger.BATCH_SIZE_MAX / LegId.LEGS_MAX;
        List<Payment> chunk = new ArrayList<>(chunkMax);
        for (ReadModel.Row row : rows) {
            if (!ReadModel.SETTLED.equals(row.status())) {
                continue;
            }
            try {
                chunk.add(new Payment(
                        new PaymentId(Id128.fromUuid(row.paymentId())),
                        row.payer(),
                        row.payee(),
                        row.amountCentavos()));
            } catch (IllegalArgumentException e) {
                continue; // (c) reports it
            }
            if (chunk.size() == chunkMax) {
                settledChunk(ledger, chunk, settled);
                chunk.clear();
            }
        }
        settledChunk(ledger, chunk, settled);
        return settled;
    }

    private static void settledChunk(Ledger ledger, List<Payment> chunk, List<ConsistentCut.Settled> settled) {
        if (chunk.isEmpty()) {
            return;
        }
        List<Id128> legIds = new ArrayList<>();
        for (Payment payment : chunk) {
            for (SettlementPlan.Leg leg : SettlementPlan.of(payment).legs()) {
                legIds.add(LegId.of(payment.id(), LegId.Phase.POST, leg.number()));
            }
        }
        Map<Id128, Transfer> posted = LedgerBooks.lookupTransfers(ledger, legIds);
        for (Payment payment : chunk) {
            long last = -1;
            for (SettlementPlan.Leg leg : SettlementPlan.of(payment).legs()) {
                Transfer post = posted.get(LegId.of(payment.id(), LegId.Phase.POST, leg.number()));
                if (post == null) {
                    last = -1; // not every leg posted: (c) reports it; no part of the cut
                    break;
                }
                last = Math.max(last, post.timestamp());
            }
            if (last >= 0) {
                settled.add(new ConsistentCut.Settled(payment.id().value().toUuid(), payment, last));
            }
        }
    }

    /** Banks registered with payment-api (its {@code banks} table), seeded or not. */
    static List<BankId> registeredBanks(DataSource database, String participantsSchema) throws SQLException {
        String sql = "SELECT ispb FROM " + LocalPostgres.quoteIdentifier(participantsSchema) + ".banks ORDER BY ispb";
        List<BankId> banks = new ArrayList<>();
        try (Connection connection = database.getConnection();
                PreparedStatement query = connection.prepareStatement(sql);
                ResultSet result = query.executeQuery()) {
            while (result.next()) {
                banks.add(new BankId(result.getInt(1)));
            }
        }
        return banks;
    }
}
