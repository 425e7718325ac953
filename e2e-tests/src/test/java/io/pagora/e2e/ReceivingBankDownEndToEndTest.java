package io.pagora.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.e2e.support.Books;
import io.pagora.e2e.support.Books.View;
import io.pagora.e2e.support.Pagora;
import io.pagora.e2e.support.Participants;
import io.pagora.e2e.support.Participants.Customer;
import io.pagora.e2e.support.PaymentBook;
import io.pagora.e2e.support.PromQl;
import io.pagora.e2e.support.Quiescence;
import io.pagora.e2e.support.ServiceApplication;
import io.pagora.e2e.support.StreamReader;
import io.pagora.ledger.port.Account;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.Http;
import io.pagora.testing.ServerBacked;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A receiving bank down (no pull, no answer) for longer than the pending timeout while another bank keeps answering,
 * through the participants' protocol alone (docs/participants.md):
 * <ul>
 *   <li>the down bank's payments expire, nothing moves, and the payer's bank gets its reserve back whole; the other
 *       bank's payments settle;
 *   <li>back up, the down bank reads its instructions and then the outcomes of what it missed, and its late answer
 *       moves nothing ({@code answer-after-expiry});
 *   <li>the receiving banks' dashboard ({@code infra/grafana/dashboards/participants.json}) shows it: every metric it
 *       queries is exported, the expiries are counted against the down bank only, the answers' latency and the stream
 *       lag are measured for the bank that answered, and nothing waits for an answer at the end.
 * </ul>
 * Ends with the money invariants, the read model against the ledger, and one outcome per payment.
 */
@ServerBacked
class ReceivingBankDownEndToEndTest {

    static final int PAYER_BANK = 11_111_111;
    static final int DOWN_BANK = 22_222_222;
    static final int UP_BANK = 33_333_333;
    static final long RESERVE_CENTAVOS = 10_000_000L;
    static final long CUSTOMER_CENTAVOS = 1_000_000L;
    static final Duration PENDING_TIMEOUT = Duration.ofSeconds(3);
    static final int PAYMENTS_PER_BANK = 3;
    static final int PULLS_MAX = 60;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aBankDownPastTheTimeoutHasItsPaymentsExpireWhileAnotherKeepsSettling() {
        try (Pagora pagora = Pagora.start(new Pagora.Options("postgresql", 1.0, 0.0, PENDING_TIMEOUT, 1))) {
            ConfigurableApplicationContext clearing = pagora.startClearingWithParticipants();
            Participants participants = new Participants(pagora.paymentApi());
            Customer payer = participants.bankWithCustomer(PAYER_BANK, RESERVE_CENTAVOS, CUSTOMER_CENTAVOS);
            Customer toDown = participants.bankWithCustomer(DOWN_BANK, RESERVE_CENTAVOS, CUSTOMER_CENTAVOS);
            Customer toUp = participants.bankWithCustomer(UP_BANK, RESERVE_CENTAVOS, CUSTOMER_CENTAVOS);
            Account before = reserveOf(pagora, PAYER_BANK);
            // The payer's bank watches its reserve: what it pays out takes it below the low watermark, for good.
            Http.Response watched = pagora.paymentApi()
                    .asBank(PAYER_BANK)
                    .send(
                            "/banks/" + PAYER_BANK + "/liquidity-watermarks",
                            "PUT",
                            java.net.http.HttpRequest.BodyPublishers.ofString("{\"lowWatermarkCentavos\":"
                                    + (RESERVE_CENTAVOS - 300) + ",\"highWatermarkCentavos\":"
                                    + (RESERVE_CENTAVOS + 1_000_000) + "}"),
                            "application/json");
            assertThat(watched.status()).as("%s", watched).isEqualTo(200);
            PaymentBook book = new PaymentBook(pagora.paymentApi());
            List<String> downs = new java.util.ArrayList<>();
            List<String> ups = new java.util.ArrayList<>();
            long upCentavos = 0;
            for (int i = 1; i <= PAYMENTS_PER_BANK; i++) {
                downs.add(book.payAccepted(payer, toDown, 1_000L * i));
                ups.add(book.payAccepted(payer, toUp, 100L * i));
                upCentavos += 100L * i;
            }

            StreamReader up = new StreamReader(pagora.paymentApi().asBank(UP_BANK), UP_BANK);
            up.pullUntil(
                    messages -> ups.stream().allMatch(id -> messages.containsKey(StreamReader.instructionId(id))),
                    PULLS_MAX);
            Http.Response answered = up.answer(ups.stream()
                    .map(id -> Map.<String, Object>of("paymentId", id, "decision", "ACCEPT"))
                    .toList());
            assertThat(answered.status()).as("%s", answered).isEqualTo(200);
            up.close();

            // The down bank never pulls: its payments wait out the pending timeout and expire.
            Map<PaymentId, View> views =
                    Books.awaitFinalStates(pagora.reporting(), book.accepted(), Duration.ofSeconds(60));
            downs.forEach(id ->
                    assertThat(views.get(PaymentId.parse(id)).outcome()).as(id).isEqualTo("EXPIRED"));
            ups.forEach(id ->
                    assertThat(views.get(PaymentId.parse(id)).outcome()).as(id).isEqualTo("SETTLED"));
            Account after = reserveOf(pagora, PAYER_BANK);
            assertThat(after.debitsPending())
                    .as("no reservation of the payer's bank is left pending")
                    .isZero();
            assertThat(after.debitsPosted() - before.debitsPosted())
                    .as("the payer's bank paid out the settled payments only")
                    .isEqualTo(upCentavos);

            theDownBankComesBackToOutcomesAndItsLateAnswerMovesNothing(pagora, downs);
            theDashboardShowsIt(pagora, clearing);

            Quiescence.await(pagora, Duration.ofSeconds(60));
            Books.assertMoneyInvariants(pagora.ledger(), participants.allAccounts(), Duration.ofSeconds(15));
            Books.assertReadModelEqualsLedger(pagora, participants, book.accepted(), views);
            Books.assertOutcomesAgreeAndNothingLost(pagora, views);
        }
    }

    private static void theDownBankComesBackToOutcomesAndItsLateAnswerMovesNothing(Pagora pagora, List<String> downs) {
        StreamReader back = new StreamReader(pagora.paymentApi().asBank(DOWN_BANK), DOWN_BANK);
        back.pullUntil(
                messages -> downs.stream()
                        .allMatch(id -> messages.containsKey(StreamReader.instructionId(id))
                                && messages.containsKey(StreamReader.outcomeId(id, "payee"))),
                PULLS_MAX);
        downs.forEach(id -> assertThat(back.messages()
                        .get(StreamReader.outcomeId(id, "payee"))
                        .path("status")
                        .asString())
                .as("what %s missed", id)
                .isEqualTo("EXPIRED"));
        Http.Response late = back.answerOne(downs.getFirst(), Map.of("decision", "ACCEPT"));
        assertThat(late.status()).as("an answer after the expiry: %s", late).isEqualTo(410);
        assertThat(late.problemType()).isEqualTo("answer-after-expiry");
        back.close();
    }

    /** Every metric of the receiving banks' dashboard is exported, and its per-bank series say what happened. */
    private static void theDashboardShowsIt(Pagora pagora, ConfigurableApplicationContext clearing) {
        String api = scrape(pagora.paymentApi().asOperator());
        String clearingText = scrape(new Http("http://127.0.0.1:" + ServiceApplication.port(clearing)));
        PromQl.Exposition both = PromQl.Exposition.parse(api).plus(PromQl.Exposition.parse(clearingText));
        Map<String, Set<String>> usedBy = DashboardMetricsTest.metricsUsedByDashboards(
                file -> file.getFileName().toString().equals(DashboardMetricsTest.PARTICIPANTS_DASHBOARD));
        Map<String, Set<String>> missing = new TreeMap<>();
        usedBy.forEach((name, where) -> {
            if (!both.provides(name)) {
                missing.put(name, where);
            }
        });
        assertThat(missing)
                .as("metrics the receiving banks' dashboard queries but no service exports")
                .isEmpty();

        String down = "bank=\"%08d\"".formatted(DOWN_BANK);
        String upBank = "bank=\"%08d\"".formatted(UP_BANK);
        assertThat(Books.metric(clearingText, "pagora_clearing_expired_total", down))
                .isEqualTo(PAYMENTS_PER_BANK);
        assertThat(Books.metric(clearingText, "pagora_clearing_expired_total", upBank))
                .isZero();
        assertThat(Books.metric(clearingText, "pagora_clearing_awaiting_answer", down))
                .as("nothing waits for the down bank once its payments expired")
                .isZero();
        assertThat(Books.metric(clearingText, "pagora_clearing_awaiting_answer", upBank))
                .isZero();
        assertThat(Books.metric(api, "pagora_participants_answer_latency_seconds_count", upBank))
                .isEqualTo(PAYMENTS_PER_BANK);
        assertThat(Books.metric(api, "pagora_participants_stream_lag_seconds_count", upBank))
                .isPositive();
        assertThat(Books.metric(api, "pagora_participants_stream_lag_seconds_count", down))
                .as("the down bank's pulls after its return: its instructions, seconds old")
                .isPositive();
        String payer = "bank=\"%08d\"".formatted(PAYER_BANK);
        assertThat(Books.metric(api, "pagora_liquidity_alerted", payer))
                .as("the payer's bank paid below its low watermark")
                .isEqualTo(1);
        // The gauge is the watcher's last reading (one a second): the expired payments' voids show at its next round.
        io.pagora.e2e.support.Poll.upTo(Duration.ofSeconds(10), Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(Books.metric(
                                scrape(pagora.paymentApi().asOperator()),
                                "pagora_liquidity_reserve_available_centavos",
                                payer))
                        .isEqualTo(RESERVE_CENTAVOS - 600));
        assertThat(Books.metric(api, "pagora_liquidity_crossings_total", "crossing=\"FELL_BELOW_LOW\""))
                .as("once, however many payments took it further down")
                .isEqualTo(1);
    }

    private static Account reserveOf(Pagora pagora, int ispb) {
        return pagora.ledger()
                .lookupAccounts(List.of(ChartOfAccounts.reserve(new BankId(ispb))))
                .getFirst();
    }

    private static String scrape(Http service) {
        Http.Response response = service.get("/actuator/prometheus");
        assertThat(response.status())
                .as("%s/actuator/prometheus", service.base())
                .isEqualTo(200);
        return response.body();
    }
}
