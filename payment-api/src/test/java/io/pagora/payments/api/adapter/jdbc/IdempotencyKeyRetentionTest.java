package io.pagora.payments.api.adapter.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.application.intake.IdempotencyKeys.Claim;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Claimed;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Scoped;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Stored;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.access.Caller;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestPostgres;
import java.sql.Connection;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Idempotency keys are kept for a window, then removed in bulk. The table is partitioned by
 * claim day; the retention job creates partitions ahead and drops whole partitions past the window; a replay
 * inside the window is recognised whatever partition its key was claimed in, even when two claims of one key
 * race across midnight; keys stored before the migration survive it and still replay.
 */
@ServerBacked
class IdempotencyKeyRetentionTest {

    static final int RETENTION_DAYS = 7;
    static final int DAYS_AHEAD = 3;
    static final Caller BANK = Caller.bank(1);
    static final byte[] REQUEST = new byte[32];
    static final TimeOrderedIds IDS = new TimeOrderedIds(Clock.systemUTC());

    TestPostgres.Database database;
    JdbcTemplate jdbc;
    JdbcIdempotencyKeys keys;
    JdbcIdempotencyPartitions partitions;
    LocalDate today;

    @BeforeEach
    void setUp() {
        database = TestPostgres.freshDatabase();
        jdbc = new JdbcTemplate(database.dataSource());
        keys = new JdbcIdempotencyKeys(jdbc);
        partitions = new JdbcIdempotencyPartitions(jdbc, RETENTION_DAYS, DAYS_AHEAD);
        today = LocalDate.now(ZoneOffset.UTC);
    }

    @AfterEach
    void tearDown() {
        database.close();
    }

    @Test
    void theTableIsPartitionedByClaimDay() {
        migrate(null);
        assertThat(jdbc.queryForObject(
                        "SELECT relkind::text FROM pg_class WHERE oid = 'payment_api.idempotency_keys'::regclass",
                        String.class))
                .isEqualTo("p");
        partitions.maintain(today);
        assertThat(partitionCount())
                .as("today and %d days ahead, at least", DAYS_AHEAD)
                .isGreaterThanOrEqualTo(1 + DAYS_AHEAD);
    }

    @Test
    void keysStoredBeforeTheMigrationSurviveAndStillReplay() {
        migrate("2");
        UUID earlier = IDS.nextPaymentId().value().toUuid();
        jdbc.update(
                "INSERT INTO payment_api.idempotency_keys (participant, idempotency_key, request_sha256, payment_id,"
                        + " accepted_at) VALUES (?, 'before-upgrade', ?, ?, now() - interval '2 days')",
                BANK.principalName(),
                REQUEST,
                earlier);
        migrate(null);

        Stored replay = claim("before-upgrade", at(today, 12));
        assertThat(replay.inserted()).isFalse();
        assertThat(replay.paymentId().value().toUuid()).isEqualTo(earlier);
    }

    @Test
    void aReplayOnALaterDayOfTheWindowIsAReplay() {
        migrate(null);
        partitions.maintain(today);
        Stored first = claim("k", Instant.parse(today + "T23:59:59.999999Z"));
        assertThat(first.inserted()).isTrue();
        for (int day = 1; day <= DAYS_AHEAD; day++) {
            Stored replay = claim("k", at(today.plusDays(day), 0));
            assertThat(replay.inserted()).as("day %d", day).isFalse();
            assertThat(replay.paymentId()).isEqualTo(first.paymentId());
            assertThat(replay.acceptedAt()).isEqualTo(first.acceptedAt());
        }
        assertThat(rowsOf("k")).isEqualTo(1);
    }

    /** The race the partitioning opens: two claims of one key, one just before midnight, one just after. */
    @Test
    void claimsOfOneKeyOnAdjacentDaysNeverBothInsert() throws Exception {
        migrate(null);
        partitions.maintain(today);
        try (Connection first = database.dataSource().getConnection()) {
            first.setAutoCommit(false);
            Map<Scoped, Claimed> claimed = JdbcIdempotencyKeys.claimInTransaction(
                    first, List.of(claimOf("midnight")), Instant.parse(today + "T23:59:59.999999Z"));
            Stored before = claimed.values().iterator().next().key();
            assertThat(before.inserted()).isTrue();

            CompletableFuture<Stored> after =
                    CompletableFuture.supplyAsync(() -> claim("midnight", at(today.plusDays(1), 0)));
            // Time for the next day's claim to reach the database and block on the first's row: there is nothing to
            // poll for, a claim that waits looks like one not yet sent.
            Thread.sleep(1_000);
            assertThat(after)
                    .as("the next day's claim waits for the day before's")
                    .isNotDone();
            first.commit();

            Stored replay = after.get(10, TimeUnit.SECONDS);
            assertThat(replay.inserted()).isFalse();
            assertThat(replay.paymentId()).isEqualTo(before.paymentId());
        }
        assertThat(rowsOf("midnight")).isEqualTo(1);
    }

    @Test
    void theJobDropsWholePartitionsPastTheWindow() {
        migrate(null);
        partitions.maintain(today);
        Stored old = claim("old", at(today, 8));
        claim("kept", at(today.plusDays(1), 8));

        LocalDate later = today.plusDays(RETENTION_DAYS + 1);
        partitions.maintain(later);

        assertThat(rowsOf("old"))
                .as("claimed %d days before %s", RETENTION_DAYS + 1, later)
                .isZero();
        assertThat(rowsOf("kept"))
                .as("claimed %d days before %s", RETENTION_DAYS, later)
                .isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT min(claimed_on) FROM payment_api.idempotency_keys", LocalDate.class))
                .isEqualTo(today.plusDays(1));
        assertThat(oldestPartitionUpperBound())
                .as("no partition left wholly before the window")
                .isAfter(later.minusDays(RETENTION_DAYS));
        // Past the window the key names nothing any more: the same key is a new payment.
        Stored reused = claim("old", at(later, 8));
        assertThat(reused.inserted()).isTrue();
        assertThat(reused.paymentId()).isNotEqualTo(old.paymentId());
        assertThat(partitions.maintain(later).dropped())
                .as("a second round finds nothing to drop")
                .isEmpty();
    }

    private Stored claim(String key, Instant acceptedAt) {
        Claim claim = claimOf(key);
        return keys.claimAll(List.of(claim), acceptedAt).get(claim.key()).key();
    }

    private static Claim claimOf(String key) {
        return new Claim(new Scoped(BANK, new IdempotencyKey(key)), REQUEST, IDS.nextPaymentId(), null);
    }

    private static Instant at(LocalDate day, int hour) {
        return day.atTime(hour, 0).toInstant(ZoneOffset.UTC);
    }

    private int rowsOf(String key) {
        return jdbc.queryForObject(
                "SELECT count(*) FROM payment_api.idempotency_keys WHERE idempotency_key = ?", Integer.class, key);
    }

    private int partitionCount() {
        return jdbc.queryForObject(
                "SELECT count(*) FROM pg_inherits WHERE inhparent = 'payment_api.idempotency_keys'::regclass",
                Integer.class);
    }

    private LocalDate oldestPartitionUpperBound() {
        return partitions.partitions().stream()
                .map(JdbcIdempotencyPartitions.Partition::until)
                .min(LocalDate::compareTo)
                .orElseThrow();
    }

    private void migrate(String target) {
        PaymentApiSchema.migrate(database.dataSource(), target);
    }
}
