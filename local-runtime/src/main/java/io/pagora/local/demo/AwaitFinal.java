package io.pagora.local.demo;

import com.zaxxer.hikari.HikariDataSource;
import io.pagora.local.chaos.ChaosCheck;
import io.pagora.local.readside.Quiescence;
import io.pagora.local.readside.ReadModel;
import io.pagora.local.readside.ReadSide;
import io.pagora.local.runfiles.AcceptedPayments;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Waits (bounded) until every payment the load generator was told was accepted is final in the read model, then
 * until the platform is quiet ({@link Quiescence}: the participants' returns final too), so the demo's CPU snapshot
 * and report come after the last settlement. Never fails: a payment still not final at the deadline is the report's
 * to judge.
 *
 * <pre>
 *   java -jar local-runtime.jar await-final --accepted=var/demo/k6-answers.log --final-wait-seconds=120
 *       [--reporting-schema=reporting] [--bootstrap-servers=127.0.0.1:9092]
 *       [ReadSide's connection options; the ledger's are accepted and unused]
 * </pre>
 */
public final class AwaitFinal {

    private AwaitFinal() {}

    public static void main(String[] args) throws Exception {
        AwaitFinalOptions options = AwaitFinalOptions.parse(args);
        List<UUID> ids = ChaosCheck.acceptedIds(AcceptedPayments.read(options.accepted()));
        System.out.printf(
                "waiting up to %d s for %d accepted payments to reach a final state (read model)%n",
                options.finalWait().toSeconds(), ids.size());
        Instant started = Instant.now();
        Instant deadline = started.plus(options.finalWait());
        // The read model only: waiting needs no ledger (and opening the PostgreSQL one would migrate it).
        try (HikariDataSource database = ReadSide.openDatabase(options.readSide(), "await-final")) {
            Instant finalAt = ReadModel.awaitFinal(database, options.schema(), ids, deadline, "await-final");
            System.out.println(
                    finalAt == null
                            ? "not every payment is final: the report will say which"
                            : "every accepted payment final after "
                                    + Duration.between(started, finalAt).toMillis() + " ms");
            // The report judges every payment, the participants' returns too: wait for those asked after the last
            // settlement.
            Quiescence.Result quiet = Quiescence.await(
                    database,
                    options.schema(),
                    options.bootstrap(),
                    Quiescence.QUIET_DEFAULT,
                    Quiescence.atLeastQuiet(Duration.between(Instant.now(), deadline)));
            System.out.println(quiet.describe());
        }
    }
}
