package io.pagora.payments.api;

import static io.pagora.payments.api.PaymentValidationTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.SecondInstance;
import io.pagora.payments.api.testsupport.SecondInstanceTest;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.testing.Http;
import io.pagora.testing.TestCertificates;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.TestPropertySource;

/**
 * A participant's limits hold for the whole switch, however many payment-api instances serve it: here two, on one
 * PostgreSQL. A bank whose payments are split over both gets its burst once (plus the refill while the test runs), not
 * once per instance; its unknown-account answers are counted once; and a restarted instance forgives no debt.
 * Each test has its own bank: the limits are the bank's, whichever test spends them. A bank's first call on an
 * instance waits for its lease up to lease-wait, 10 s here: on a loaded test machine a round can take over the default
 * 1 s, and the instance would then decide on its own share, which is the fallback, not what is tested here.
 */
@TestPropertySource(
        properties = {
            "pagora.payments.participant-limits.burst=" + SharedParticipantLimitsTest.BURST,
            "pagora.payments.participant-limits.refill-per-second=" + SharedParticipantLimitsTest.REFILL_PER_SECOND,
            "pagora.payments.batch-items-max=" + SharedParticipantLimitsTest.BURST,
            "pagora.payments.unknown-account-limit.burst=" + SharedParticipantLimitsTest.UNKNOWN_BURST,
            "pagora.payments.unknown-account-limit.refill-per-second=0.001",
            "pagora.payments.shared-limits.lease-wait=10s"
        })
class SharedParticipantLimitsTest extends SecondInstanceTest {

    static final int BURST = 10;
    static final String REFILL_PER_SECOND = "1";
    static final int UNKNOWN_BURST = 3;
    static final int OTHER_BANK = 72;
    /** Its own bank, so the payments bucket the other test empties does not answer its probes. */
    static final int PROBING_BANK = 73;

    static final int RESTART_BANK = 74;

    ConfigurableApplicationContext second;
    Http secondHttp;
    String prober;
    String restartProber;

    @Override
    protected int bankIspb() {
        return 71;
    }

    @BeforeAll
    void startSecondInstance() {
        second = startInstance();
        secondHttp = SecondInstance.http(second, bankIdentity());
        Participants participants = new Participants(port);
        participants.registerBank(OTHER_BANK, "Banco " + OTHER_BANK);
        participants.registerBank(PROBING_BANK, "Banco " + PROBING_BANK);
        prober = participants.openAccount(PROBING_BANK);
        participants.registerBank(RESTART_BANK, "Banco " + RESTART_BANK);
        restartProber = participants.openAccount(RESTART_BANK);
    }

    @AfterAll
    void stopSecondInstance() {
        if (second != null) {
            second.close();
        }
    }

    /** Another payment-api on the test's database and broker, with the test's limits. */
    private ConfigurableApplicationContext startInstance() {
        return SecondInstance.start(
                database,
                context -> {},
                "--spring.kafka.bootstrap-servers=" + kafkaBootstrapServers(),
                "--pagora.payments.participant-limits.burst=" + BURST,
                "--pagora.payments.participant-limits.refill-per-second=" + REFILL_PER_SECOND,
                "--pagora.payments.batch-items-max=" + BURST,
                "--pagora.payments.unknown-account-limit.burst=" + UNKNOWN_BURST,
                "--pagora.payments.unknown-account-limit.refill-per-second=0.001",
                "--pagora.payments.shared-limits.lease-wait=10s");
    }

    @Test
    void aBurstSplitOverTwoInstancesIsAcceptedOnceSwitchWide() {
        int sent = 3 * BURST;
        List<Integer> statuses = new ArrayList<>(sent);
        long started = System.nanoTime();
        for (int i = 0; i < sent; i++) {
            Http instance = i % 2 == 0 ? healthy : secondHttp;
            statuses.add(instance.post(
                            "/payments",
                            Http.payment(payer, payee, 1_00),
                            "Idempotency-Key",
                            "burst-" + UUID.randomUUID())
                    .status());
        }
        double elapsedSeconds = (System.nanoTime() - started) / 1e9;

        long accepted = statuses.stream().filter(status -> status == 202).count();
        long refilled = (long) Math.floor(Double.parseDouble(REFILL_PER_SECOND) * elapsedSeconds) + 1;
        assertThat(statuses)
                .as("accepted or refused over the rate, nothing else")
                .containsOnly(202, 429);
        assertThat(accepted)
                .as("the burst (%d) once, plus at most the refill of %.1f s: %s", BURST, elapsedSeconds, statuses)
                .isLessThanOrEqualTo(BURST + refilled);
        assertThat(accepted).as("the burst is there to be spent: %s", statuses).isGreaterThanOrEqualTo(BURST / 2);
    }

    @Test
    void unknownAccountAnswersAreCountedOnceSwitchWideAndARestartForgivesNoDebt() {
        Http first = new Participants(port).bank(PROBING_BANK);
        Http other = SecondInstance.http(second, TestCertificates.shared().bank(PROBING_BANK));
        List<String> types = new ArrayList<>();
        // An instance decides on the tokens it holds: one whose holding is spent refuses until its next round tops it
        // up from the switch's bucket, so a probe may be refused while the bucket still has tokens. Probing on, with
        // pauses longer than a round, spends the whole allowance; it is the count of answers that must be exact. The
        // probes stay within the bank's payment burst, so only the allowance refuses them.
        int probe = 0;
        while (probe < BURST - 4
                && types.stream().filter(type -> type.startsWith("422")).count() < UNKNOWN_BURST) {
            probe++;
            types.add(typeOf(probe(probe % 2 == 0 ? first : other, probe)));
            pause();
        }
        types.add(typeOf(probe(first, 100)));
        types.add(typeOf(probe(other, 101)));
        assertThat(types).as("told, then refused").containsOnly("422 unknown-account", "429 unknown-account-limit");
        assertThat(types.stream().filter(type -> type.startsWith("422")).count())
                .as("the allowance (%d) once, switch-wide: %s", UNKNOWN_BURST, types)
                .isEqualTo(UNKNOWN_BURST);
        assertThat(types.subList(types.size() - 2, types.size()))
                .as("then refused on both instances")
                .containsOnly("429 unknown-account-limit");
    }

    private static String typeOf(Http.Response answer) {
        return answer.status() + " " + answer.json().path("type").asString().replaceAll(".*/", "");
    }

    /** A bank spends its allowance on one instance: the other refuses it too, and so does the first, restarted. */
    @Test
    void aRestartedInstanceForgivesNoDebt() {
        Http before = SecondInstance.http(second, TestCertificates.shared().bank(RESTART_BANK));
        int told = 0;
        for (int probe = 1; probe <= BURST - 4 && told < UNKNOWN_BURST; probe++) {
            Http.Response answer = probe(before, restartProber, probe);
            assertThat(typeOf(answer)).as("%s", answer).isIn("422 unknown-account", "429 unknown-account-limit");
            told += answer.status() == 422 ? 1 : 0;
            pause();
        }
        assertThat(told).as("the whole allowance spent on one instance, once").isEqualTo(UNKNOWN_BURST);
        assertProblem(pastThePaymentRate(before, 100), 429, "unknown-account-limit");
        assertProblem(pastThePaymentRate(new Participants(port).bank(RESTART_BANK), 101), 429, "unknown-account-limit");

        second.close();
        second = startInstance();
        secondHttp = SecondInstance.http(second, bankIdentity());
        Http restarted = SecondInstance.http(second, TestCertificates.shared().bank(RESTART_BANK));
        assertProblem(pastThePaymentRate(restarted, 102), 429, "unknown-account-limit");
    }

    /**
     * A probe answered by the unknown-account allowance, not the payment rate: a stopped instance's holding still
     * counts against the bank's payment bucket until it is no longer live (stricter, never looser), so right after a
     * restart the payment rate may refuse first; it refills at 1 a second and takes nothing of the allowance.
     */
    private Http.Response pastThePaymentRate(Http instance, long number) {
        return await().atMost(Duration.ofSeconds(21))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofSeconds(1))
                .until(
                        () -> probe(instance, restartProber, number),
                        answer -> !answer.json().path("type").asString().endsWith("/participant-rate-limited"));
    }

    /**
     * Longer than a few lease rounds (10 ms each), so a spent holding is topped up between two probes: a pause that
     * lets time pass on purpose, with no condition to poll for.
     */
    private static void pause() {
        sleepMillis(100);
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private Http.Response probe(Http instance, long number) {
        return probe(instance, prober, number);
    }

    private static Http.Response probe(Http instance, String from, long number) {
        return instance.post(
                "/payments",
                Http.payment(from, unknownAt(number), 1_00),
                "Idempotency-Key",
                "probe-" + UUID.randomUUID());
    }

    private static String unknownAt(long number) {
        return ChartOfAccounts.customer(new BankId(OTHER_BANK), 8_000_000 + number)
                .toString();
    }
}
