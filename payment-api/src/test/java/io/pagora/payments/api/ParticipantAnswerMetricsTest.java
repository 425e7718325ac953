package io.pagora.payments.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.testing.Http;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.test.context.TestPropertySource;

/**
 * The server's own account of each participant's calls, as {@code /actuator/prometheus} shows it (what the overload
 * bench reads): per participant (its ISPB) and endpoint, a timer from the request read to the answer written, with
 * histogram buckets, and a count of the calls by answer ({@code 202}, {@code 429-retry-after}, ...) — so the time of
 * one bank's calls and whether every call was answered can be judged apart from another bank's flood, and apart
 * from the load generator's own queueing. A bucket of 3 payments gives one bank its 429.
 */
@TestPropertySource(
        properties = {
            "pagora.payments.participant-limits.burst=3",
            "pagora.payments.participant-limits.refill-per-second=1",
            "pagora.payments.batch-items-max=2"
        })
class ParticipantAnswerMetricsTest extends PaymentApiIntegrationTest {

    private static final int FLOODING_BANK = 71;
    private static final int OTHER_BANK = 72;

    @Test
    void eachParticipantsCallsAreTimedAndCountedByAnswerFromTheRequestReadToTheAnswerWritten() {
        Participants participants = new Participants(port);
        participants.registerBank(FLOODING_BANK, "Banco " + FLOODING_BANK);
        participants.registerBank(OTHER_BANK, "Banco " + OTHER_BANK);
        String floodPayer = participants.openAccount(FLOODING_BANK);
        String floodPayee = participants.openAccount(FLOODING_BANK);
        String otherPayer = participants.openAccount(OTHER_BANK);

        // Past the bucket (3, refilled 1 a second), so some of these are answered 429 with Retry-After.
        List<Http.Response> flood = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            flood.add(pay(participants.bank(FLOODING_BANK), floodPayer, floodPayee));
        }
        List<Http.Response> other = List.of(
                pay(participants.bank(OTHER_BANK), otherPayer, floodPayee),
                pay(participants.bank(OTHER_BANK), otherPayer, floodPayee));
        Http.Response batch = participants
                .bank(OTHER_BANK)
                .post(
                        "/payments/batch",
                        Map.of(
                                "payments",
                                List.of(Map.of(
                                        "payerAccountId",
                                        otherPayer,
                                        "payeeAccountId",
                                        floodPayee,
                                        "amountCentavos",
                                        1_00,
                                        "idempotencyKey",
                                        "batch-" + UUID.randomUUID()))));
        String metrics = participants.operator().get("/actuator/prometheus").body();

        long floodAccepted = flood.stream().filter(r -> r.status() == 202).count();
        long floodRefused = flood.stream()
                .filter(r -> r.status() == 429 && r.header("Retry-After") != null)
                .count();
        assertThat(floodRefused)
                .as("the flooding bank met its limit: %s", flood)
                .isPositive();
        assertThat(floodAccepted + floodRefused).as("%s", flood).isEqualTo(flood.size());
        assertThat(other).allSatisfy(r -> assertThat(r.status()).as("%s", r).isEqualTo(202));
        assertThat(batch.status()).as("%s", batch).isEqualTo(200);

        String flooding = "00000071";
        String second = "00000072";
        assertThat(sample(metrics, "pagora_payments_participant_calls_total", flooding, "single", "answer=\"202\""))
                .isEqualTo(floodAccepted);
        assertThat(sample(
                        metrics,
                        "pagora_payments_participant_calls_total",
                        flooding,
                        "single",
                        "answer=\"429-retry-after\""))
                .isEqualTo(floodRefused);
        assertThat(sample(metrics, "pagora_payments_participant_calls_total", flooding, "single", "answer="))
                .as("every call the server read, by answer")
                .isEqualTo(flood.size());
        assertThat(sample(metrics, "pagora_payments_participant_calls_total", second, "single", "answer=\"202\""))
                .isEqualTo(2);
        assertThat(sample(metrics, "pagora_payments_participant_calls_total", second, "single", "answer="))
                .isEqualTo(2);
        assertThat(sample(metrics, "pagora_payments_participant_calls_total", second, "batch", "answer=\"200\""))
                .isEqualTo(1);
        assertThat(sample(metrics, "pagora_payments_participant_answer_seconds_count", flooding, "single", ""))
                .isEqualTo(flood.size());
        assertThat(sample(metrics, "pagora_payments_participant_answer_seconds_count", second, "single", ""))
                .isEqualTo(2);
        assertThat(sample(metrics, "pagora_payments_participant_answer_seconds_count", second, "batch", ""))
                .isEqualTo(1);
        assertThat(sample(
                        metrics, "pagora_payments_participant_answer_seconds_bucket", second, "single", "le=\"+Inf\""))
                .as("a histogram the bench takes percentiles from")
                .isEqualTo(2);
        assertThat(sample(metrics, "pagora_payments_participant_answer_seconds_bucket", second, "single", "le=\"0.1\""))
                .as("an SLO boundary, as every Pagora latency has")
                .isBetween(0.0, 2.0);
        assertThat(metrics)
                .as("no call went unattributed")
                .doesNotContainPattern(
                        "pagora_payments_participant_calls_total\\{[^}]*participant=\"other\"[^}]*} [1-9]");
    }

    private static Http.Response pay(Http bank, String payer, String payee) {
        return bank.post(
                "/payments", Http.payment(payer, payee, 1_00), "Idempotency-Key", "answer-" + UUID.randomUUID());
    }

    /** The sum of {@code name}'s samples of this participant and endpoint whose labels hold {@code alsoHas}. */
    private static double sample(String metrics, String name, String participant, String endpoint, String alsoHas) {
        Pattern line = Pattern.compile("^" + Pattern.quote(name) + "\\{([^}]*)} (\\S+)$", Pattern.MULTILINE);
        Matcher matcher = line.matcher(metrics);
        double sum = 0;
        int found = 0;
        while (matcher.find()) {
            String labels = matcher.group(1);
            if (labels.contains("participant=\"" + participant + "\"")
                    && labels.contains("endpoint=\"" + endpoint + "\"")
                    && labels.contains(alsoHas)) {
                assertThat(labels).as("every meter names its service").contains("application=\"payment-api\"");
                sum += Double.parseDouble(matcher.group(2));
                found++;
            }
        }
        assertThat(found)
                .as("%s{participant=%s, endpoint=%s, %s} is exported", name, participant, endpoint, alsoHas)
                .isPositive();
        return sum;
    }
}
