package io.pagora.local.readside;

import io.pagora.kernel.Check;
import io.pagora.local.servers.LocalPostgres;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * Waits (bounded) until nothing is in flight: the read model holds no payment still ACCEPTED, it has projected every
 * record published to the topics it reads, and both stayed so for a quiet period in which no payment arrived.
 *
 * <p>The checks judge every payment the read model holds, not only the load generator's, and the participants ask
 * payments of their own: the bank simulator returns a share of what it was paid, a moment after each settlement
 * reaches its stream. Waiting only for the generator's payments, a check could read the read model while such a
 * return was on its way and judge it not final. The quiet period covers a participant's reaction to the last
 * settlement; returns of returns are refused, so the platform does fall quiet once the load ends.
 */
public final class Quiescence {

    /** Longer than a participant takes from a settlement on its stream to the return it asks (a second or two). */
    public static final Duration QUIET_DEFAULT = Duration.ofSeconds(5);

    private static final Duration LOOK_INTERVAL = Duration.ofMillis(500);

    /**
     * One look at the platform; {@code unprojected} is -1 when not looked at (the cheaper look was not quiet);
     * {@code failure} is why a look could not be made (the database or Kafka not answering), else empty.
     */
    record Look(long payments, long open, long unprojected, String failure) {

        Look(long payments, long open, long unprojected) {
            this(payments, open, unprojected, "");
        }

        static Look failed(Exception e) {
            return new Look(-1, -1, -1, e.getClass().getSimpleName() + ": " + e.getMessage());
        }

        boolean quiet() {
            return failure.isEmpty() && open == 0 && unprojected == 0;
        }
    }

    /** What a wait looks at: the read model's counters, then (dearer: Kafka's offsets) the projection's lag. */
    interface Looks {

        /** Payments in the read model, and those of them not final: {@code {payments, open}}. */
        long[] readModel() throws Exception;

        long unprojected() throws Exception;
    }

    /** How a wait tells time and pauses: the system's, or a test's. */
    interface Time {

        long nanos();

        void sleep(Duration pause) throws InterruptedException;

        Time SYSTEM = new Time() {
            @Override
            public long nanos() {
                return System.nanoTime();
            }

            @Override
            public void sleep(Duration pause) throws InterruptedException {
                Thread.sleep(pause);
            }
        };
    }

    /** The result: whether it fell quiet, after how long, and the last look (for the message). */
    public record Result(boolean quiet, Duration waited, Look last) {

        public String describe() {
            if (!last.failure().isEmpty()) {
                return String.format(
                        "not quiet after %d ms: the last look failed (%s)", waited.toMillis(), last.failure());
            }
            if (quiet) {
                return String.format(
                        "quiet after %d ms: %d payments in the read model, every one final, every record "
                                + "projected",
                        waited.toMillis(), last.payments());
            }
            return String.format(
                    "not quiet after %d ms: %d payments in the read model, %d not final, %s records not " + "projected",
                    waited.toMillis(),
                    last.payments(),
                    last.open(),
                    last.unprojected() < 0 ? "(not looked at)" : Long.toString(last.unprojected()));
        }
    }

    private Quiescence() {}

    /** What is left of a deadline, but never less than one {@link #QUIET_DEFAULT}: a late wait still looks. */
    public static Duration atLeastQuiet(Duration left) {
        return left.compareTo(QUIET_DEFAULT) < 0 ? QUIET_DEFAULT : left;
    }

    public static Result await(
            DataSource readModel, String schema, String bootstrapServers, Duration quietFor, Duration wait)
            throws Exception {
        return await(
                new Looks() {
                    @Override
                    public long[] readModel() throws SQLException {
                        return counters(readModel, schema);
                    }

                    @Override
                    public long unprojected() throws Exception {
                        return ProjectionLag.unprojected(bootstrapServers);
                    }
                },
                quietFor,
                wait,
                Time.SYSTEM);
    }

    /**
     * Looks every {@link #LOOK_INTERVAL} until the platform was quiet, with the same number of payments, at two looks
     * at least {@code quietFor} apart and at every look between them; or until {@code wait} is spent.
     */
    public static Result await(Looks looks, Duration quietFor, Duration wait, Time time) throws InterruptedException {
        Check.that(
                !quietFor.isNegative() && quietFor.compareTo(wait) <= 0,
                "a quiet period in [0, wait]: %s, %s",
                quietFor,
                wait);
        long started = time.nanos();
        long deadline = started + wait.toNanos();
        long quietSince = Long.MIN_VALUE;
        long quietPayments = -1;
        Look look;
        while (true) {
            look = look(looks);
            long now = time.nanos();
            if (!look.quiet() || look.payments() != quietPayments) {
                quietSince = look.quiet() ? now : Long.MIN_VALUE;
                quietPayments = look.quiet() ? look.payments() : -1;
            }
            if (quietSince != Long.MIN_VALUE && now - quietSince >= quietFor.toNanos()) {
                return new Result(true, Duration.ofNanos(now - started), look);
            }
            if (now - deadline >= 0) {
                return new Result(false, Duration.ofNanos(now - started), look);
            }
            time.sleep(LOOK_INTERVAL);
        }
    }

    /** A look that fails (PostgreSQL or Kafka not answering) is not quiet, and the wait goes on to its bound. */
    private static Look look(Looks looks) {
        long[] readModel;
        long unprojected;
        try {
            readModel = looks.readModel();
            unprojected = readModel.length == 2 && readModel[1] == 0 ? looks.unprojected() : -1;
        } catch (Exception e) {
            return Look.failed(e);
        }
        Check.that(
                readModel.length == 2 && readModel[0] >= 0 && readModel[1] >= 0 && readModel[1] <= readModel[0],
                "read-model counters {payments, open}: %s",
                java.util.Arrays.toString(readModel));
        return new Look(readModel[0], readModel[1], unprojected);
    }

    /** The read model's one-row counters: payments, and those still ACCEPTED. */
    private static long[] counters(DataSource readModel, String schema) throws SQLException {
        String sql = "SELECT accepted_count + settled_count + rejected_count + expired_count, accepted_count FROM "
                + LocalPostgres.quoteIdentifier(schema) + ".payment_stats WHERE id = 1";
        try (Connection connection = readModel.getConnection();
                PreparedStatement query = connection.prepareStatement(sql);
                ResultSet row = query.executeQuery()) {
            Check.that(row.next(), "the payment_stats row exists");
            return new long[] {row.getLong(1), row.getLong(2)};
        }
    }
}
