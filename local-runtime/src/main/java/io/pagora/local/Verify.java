package io.pagora.local;

import io.pagora.ledger.domain.Account;
import io.pagora.kernel.Id128;
import io.pagora.ledger.domain.Ledger;
import io.pagora.ledger.domain.invariants.LedgerBooks;
import io.pagora.settlement.invariants.PixBooks;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import javax.sql.DataSource;

/**
 * The demo report's four invariant checks on a platform that is running, at any time, also while payments
 * are in flight ({@code infra/local/pagora verify}). Exits 1 when a check fails.
 *
 * <p>The ledger and the read model cannot be read at one instant, so the checks read them at a consistent
 * point: the ledger, a pause ({@code quiet-seconds}, longer than the read model's usual lag), the read model,
 * then the ledger again. An account whose posted balance changed between the two ledger reads may have
 * payments the read model has not projected yet: it is counted as in flight, not judged. A payment accepted
 * less than {@code in-flight-seconds} ago (its pending timeout plus a margin) may not be final yet: in
 * flight; an older one that is not final fails (d), whoever sent it. Payments in the read model that the load
 * generator's log does not name are counted, not failed: a running platform may serve other clients too.
 * Everything else must hold exactly, as in the report.
 *
 * <pre>
 *   java -jar local-runtime.jar verify
 *       --accounts=var/demo/accounts.tsv         the seeded banks and customers (see DemoAccounts)
 *       [--accepted=var/demo/k6-payments.log]    what the load generator was told, if it ran (see AcceptedPayments)
 *       [--in-flight-seconds=60] [--quiet-seconds=3] [--reporting-schema=reporting]
 *       [connection options: see ReadSide]
 * </pre>
 */
public final class Verify {

    private Verify() {}

    /** {@code accepted} may be null: no load generator's answers to check against. */
    public record Inputs(Path accounts, Path accepted, String reportingSchema, Duration inFlight, Duration quiet) {}

    public static void main(String[] args) throws Exception {
        Options options = new Options(args);
        String accepted = options.string("accepted", "");
        Inputs inputs = new Inputs(options.path("accounts"), accepted.isBlank() ? null : Path.of(accepted),
                options.string("reporting-schema", "reporting"),
                Duration.ofSeconds(options.longValue("in-flight-seconds", 60)),
                Duration.ofSeconds(options.longValue("quiet-seconds", 3)));
        ReadSide.Settings readSide = ReadSide.Settings.from(options);
        options.rejectUnknown();
        DemoReport.Result result;
        try (ReadSide platform = ReadSide.open(readSide, "verify")) {
            result = run(inputs, platform.dataSource(), platform.ledger(), Clock.systemUTC());
        }
        result.lines().forEach(System.out::println);
        System.exit(result.passed() ? 0 : 1);
    }

    public static DemoReport.Result run(Inputs inputs, DataSource readModelDatabase, Ledger ledger, Clock clock)
            throws Exception {
        DemoAccounts accounts = DemoAccounts.read(inputs.accounts());
        // The answers first: a payment in the read model must have been answered before it was read.
        AcceptedPayments accepted = inputs.accepted() != null && Files.exists(inputs.accepted())
                ? AcceptedPayments.read(inputs.accepted()) : new AcceptedPayments(List.of(), 0, 0, 0);
        List<Id128> ids = accounts.allAccountIds();
        Map<Id128, Account> before = PixBooks.read(ledger, ids).found();
        Thread.sleep(inputs.quiet().toMillis());
        List<ReadModel.Row> rows = ReadModel.load(readModelDatabase, inputs.reportingSchema());
        Map<UUID, Long> duplicates = ReadModel.duplicatedIds(readModelDatabase, inputs.reportingSchema());
        Instant readAt = clock.instant();
        LedgerBooks after = PixBooks.read(ledger, ids);
        Set<Id128> moving = moved(before, after.found());
        InvariantChecks.InFlight inFlight = new InvariantChecks.InFlight(readAt, inputs.inFlight(), moving);
        List<InvariantChecks.Verdict> verdicts =
                new InvariantChecks(ledger, accounts, rows, duplicates, accepted, inFlight, after).runAll();

        long finals = rows.stream().filter(ReadModel.Row::isFinal).count();
        List<String> out = new ArrayList<>();
        out.add("==================== Pagora verify (running platform) ====================");
        out.add(String.format("ledger backend: %s   read model: %s.payments (%d payments, %d final, %d not yet)",
                ledger.backendName(), inputs.reportingSchema(), rows.size(), finals, rows.size() - finals));
        out.add(String.format("consistent point: ledger read, %d s pause, read model read, ledger read again: "
                + "%d of %d accounts moved in between (in flight); a payment accepted less than %d s ago may be in flight",
                inputs.quiet().toSeconds(), moving.size(), ids.size(), inputs.inFlight().toSeconds()));
        out.add(inputs.accepted() == null || !Files.exists(inputs.accepted())
                ? "load generator answers: none (no --accepted log): (d) checks the read model alone"
                : String.format("load generator answers: %d accepted, %d unanswered (%s)", accepted.accepted().size(),
                        accepted.unanswered(), inputs.accepted()));
        out.add("");
        out.addAll(DemoReport.verdictLines(verdicts));
        out.add("==========================================================================");
        return new DemoReport.Result(out, verdicts);
    }

    /** Accounts whose posted balance changed between the two reads, or that only one read found. */
    static Set<Id128> moved(Map<Id128, Account> before, Map<Id128, Account> after) {
        Set<Id128> moving = new HashSet<>();
        for (Map.Entry<Id128, Account> entry : after.entrySet()) {
            Account earlier = before.get(entry.getKey());
            Account later = entry.getValue();
            if (earlier == null || earlier.debitsPosted() != later.debitsPosted()
                    || earlier.creditsPosted() != later.creditsPosted()) {
                moving.add(entry.getKey());
            }
        }
        return moving;
    }
}
