package io.pagora.payments.api.adapter.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.application.intake.IdempotencyKeys.Claim;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Claimed;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Found;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Scoped;
import io.pagora.payments.api.application.intake.IdempotencyKeys.ScopedId;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PixId;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.access.Caller;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.TestPostgres;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * One row per payment names it by its key and by its end-to-end id: a claim writes that row in one statement, an id
 * held by another key's row is answered with that row (whatever day it was claimed on), two claims of one id in one
 * statement or on adjacent days never both hold it, and the rows of the two-row layout before the migration become
 * one row each and still answer for both names.
 */
@ServerBacked
class EndToEndIdInTheKeyRowTest {

    static final Caller BANK = Caller.bank(1);
    static final Caller OTHER_BANK = Caller.bank(2);
    static final byte[] REQUEST = new byte[32];
    static final byte[] OTHER_REQUEST = new byte[32];
    static final TimeOrderedIds IDS = new TimeOrderedIds(Clock.systemUTC());

    static {
        OTHER_REQUEST[0] = 1;
    }

    TestPostgres.Database database;
    JdbcTemplate jdbc;
    JdbcIdempotencyKeys keys;
    LocalDate today;

    @BeforeEach
    void setUp() {
        database = TestPostgres.freshDatabase();
        jdbc = new JdbcTemplate(database.dataSource());
        keys = new JdbcIdempotencyKeys(jdbc);
        today = LocalDate.now(ZoneOffset.UTC);
    }

    @AfterEach
    void tearDown() {
        database.close();
    }

    @Test
    void aPaymentIsOneRowHoldingItsKeyAndItsId() {
        migrate(null);
        maintain();
        PixId id = pixId("oneRow00001");
        Claimed claimed = claim(BANK, "k1", REQUEST, id, at(today, 10));

        assertThat(claimed.key().inserted()).isTrue();
        assertThat(claimed.key().endToEndId()).isEqualTo(id.value());
        assertThat(claimed.idOfAnotherKey()).isNull();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM payment_api.idempotency_keys", Integer.class))
                .as("one row, not a key row and an id row")
                .isEqualTo(1);

        Claimed replay = claim(BANK, "k1", REQUEST, id, at(today, 11));
        assertThat(replay.key().inserted()).isFalse();
        assertThat(replay.key().paymentId()).isEqualTo(claimed.key().paymentId());
        assertThat(replay.idOfAnotherKey())
                .as("its own id is not another key's")
                .isNull();
    }

    @Test
    void anIdHeldByAnotherKeyIsAnsweredWithThatRowOnAnyDayOfTheWindow() {
        migrate(null);
        maintain();
        PixId id = pixId("heldByOther");
        Claimed first = claim(BANK, "k1", REQUEST, id, at(today, 10));
        // The next day, another key of the same bank names the same id: the row of the first key answers.
        Claimed second = claim(BANK, "k2", OTHER_REQUEST, id, at(today.plusDays(1), 10));

        assertThat(second.idOfAnotherKey()).isNotNull();
        assertThat(second.idOfAnotherKey().key()).isEqualTo(scoped(BANK, "k1"));
        assertThat(second.idOfAnotherKey().paymentId()).isEqualTo(first.key().paymentId());
        assertThat(second.key().endToEndId())
                .as("the second key's row does not take the id")
                .isNull();
        assertThat(countOfId(id)).isEqualTo(1);

        // Another bank's equal id is its own: ids are scoped by participant, as keys are.
        Claimed otherBank = claim(OTHER_BANK, "k1", REQUEST, id, at(today, 12));
        assertThat(otherBank.key().inserted()).isTrue();
        assertThat(otherBank.idOfAnotherKey()).isNull();

        Found found = keys.find(List.of(scoped(BANK, "k2")), List.of(new ScopedId(BANK, id)));
        assertThat(found.byId().get(new ScopedId(BANK, id)).paymentId())
                .isEqualTo(first.key().paymentId());
        assertThat(found.byKey().get(scoped(BANK, "k2")).paymentId())
                .isEqualTo(second.key().paymentId());
    }

    @Test
    void twoKeysClaimingOneIdInOneStatementNeverBothHoldIt() {
        migrate(null);
        maintain();
        PixId id = pixId("sameStateme");
        Claim a = new Claim(scoped(BANK, "a"), REQUEST, IDS.nextPaymentId(), id);
        Claim b = new Claim(scoped(BANK, "b"), REQUEST, IDS.nextPaymentId(), id);
        Map<Scoped, Claimed> claimed = keys.claimAll(List.of(a, b), at(today, 9));

        Claimed first = claimed.get(a.key());
        Claimed second = claimed.get(b.key());
        assertThat(first.key().inserted()).isTrue();
        assertThat(first.idOfAnotherKey()).isNull();
        assertThat(second.idOfAnotherKey())
                .as("the second claim, skipped by the first's insert, is claimed again and finds the first")
                .isNotNull();
        assertThat(second.idOfAnotherKey().paymentId()).isEqualTo(a.candidateId());
        assertThat(countOfId(id)).isEqualTo(1);
    }

    @Test
    void theTwoRowLayoutBecomesOneRowPerPaymentAndStillAnswersForTheId() {
        migrate("6");
        UUID payment = IDS.nextPaymentId().value().toUuid();
        PixId id = pixId("beforeUpgrd");
        insertV6Row(BANK, "client-key", payment);
        insertV6Row(BANK, "pix-id " + id.value(), payment);
        migrate(null);
        maintain();

        assertThat(jdbc.queryForObject("SELECT count(*) FROM payment_api.idempotency_keys", Integer.class))
                .isEqualTo(1);
        assertThat(jdbc.queryForObject(
                        "SELECT end_to_end_id FROM payment_api.idempotency_keys WHERE idempotency_key = 'client-key'",
                        String.class))
                .isEqualTo(id.value());
        Claimed reuse = claim(BANK, "new-key", OTHER_REQUEST, id, at(today, 12));
        assertThat(reuse.idOfAnotherKey()).isNotNull();
        assertThat(reuse.idOfAnotherKey().paymentId().value().toUuid()).isEqualTo(payment);
    }

    private void insertV6Row(Caller participant, String key, UUID payment) {
        jdbc.update(
                "INSERT INTO payment_api.idempotency_keys (participant, idempotency_key, request_sha256, payment_id,"
                        + " accepted_at, claimed_on) VALUES (?, ?, ?, ?, now(), (now() AT TIME ZONE 'UTC')::date)",
                participant.principalName(),
                key,
                REQUEST,
                payment);
    }

    private Claimed claim(Caller participant, String key, byte[] request, PixId id, Instant acceptedAt) {
        Claim claim = new Claim(scoped(participant, key), request, IDS.nextPaymentId(), id);
        return keys.claimAll(List.of(claim), acceptedAt).get(claim.key());
    }

    private int countOfId(PixId id) {
        return jdbc.queryForObject(
                "SELECT count(*) FROM payment_api.idempotency_keys WHERE participant = ? AND end_to_end_id = ?",
                Integer.class,
                BANK.principalName(),
                id.value());
    }

    private static Scoped scoped(Caller participant, String key) {
        return new Scoped(participant, new IdempotencyKey(key));
    }

    private PixId pixId(String suffix) {
        return PixId.of(PixId.Kind.END_TO_END, new BankId(1), at(today, 8), suffix);
    }

    private void maintain() {
        new JdbcIdempotencyPartitions(jdbc, 7, 3).maintain(today);
    }

    private static Instant at(LocalDate day, int hour) {
        return day.atTime(hour, 0).toInstant(ZoneOffset.UTC);
    }

    private void migrate(String target) {
        PaymentApiSchema.migrate(database.dataSource(), target);
    }
}
