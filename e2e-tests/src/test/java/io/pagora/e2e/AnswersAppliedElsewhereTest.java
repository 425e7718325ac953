package io.pagora.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.clearing.adapter.kafka.AnswersListener;
import io.pagora.clearing.adapter.kafka.OutcomesFollower;
import io.pagora.clearing.adapter.metrics.PendingChains;
import io.pagora.e2e.support.Books;
import io.pagora.e2e.support.Books.View;
import io.pagora.e2e.support.Pagora;
import io.pagora.e2e.support.Participants;
import io.pagora.e2e.support.Participants.Customer;
import io.pagora.e2e.support.PaymentBook;
import io.pagora.e2e.support.Poll;
import io.pagora.e2e.support.Quiescence;
import io.pagora.e2e.support.StreamReader;
import io.pagora.events.Topics;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.Http;
import io.pagora.testing.ServerBacked;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.KafkaListenerEndpointRegistry;
import org.springframework.kafka.listener.MessageListenerContainer;

/**
 * Two clearing instances with participants: one instructs, the other applies the answers. Requests are partitioned by
 * payer and answers by the payee's bank, in two consumer groups, so on a scaled platform this is the common case, not
 * a corner: the instance that reserved a chain must learn that it is resolved from the other's outcome. Otherwise its
 * instructed window stays full of chains settled elsewhere until they are forgotten (a pending timeout and a minute
 * later), holding its polls back meanwhile.
 *
 * <p>Made deterministic: clearing A alone instructs every payment; its answers consumer is then stopped, clearing B
 * starts and owns every answers partition, and the bank's answers are applied by B alone. Every payment settles, A's
 * pending chains fall to zero well before A would forget them, and the money invariants hold.
 */
@ServerBacked
class AnswersAppliedElsewhereTest {

    static final int PAYER_BANK = 12_121_212;
    static final int PAYEE_BANK = 23_232_323;
    static final long RESERVE_CENTAVOS = 10_000_000L;
    static final long CUSTOMER_CENTAVOS = 1_000_000L;
    static final int PAYERS = 4;
    static final int PAYMENTS = 24;
    /**
     * Room for B to start and join before the answers; a chain is forgotten a minute after it, far beyond
     * {@link #RESOLVED_WITHIN}, so forgetting cannot pass the test. The expiry worker holds its poll of parked
     * payments this long, so the pipeline is quiet only after it.
     */
    static final Duration PENDING_TIMEOUT = Duration.ofSeconds(30);

    static final Duration RESOLVED_WITHIN = Duration.ofSeconds(15);
    static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);
    static final int PULLS_MAX = 60;

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void anInstanceLearnsThatItsChainsAreResolvedWhenAnotherAppliesTheAnswers() {
        try (Pagora pagora = Pagora.start(new Pagora.Options("postgresql", 1.0, 0.0, PENDING_TIMEOUT, 1))) {
            ConfigurableApplicationContext a = pagora.startClearingWithParticipants();
            Participants participants = new Participants(pagora.paymentApi());
            Customer payee = participants.bankWithCustomer(PAYEE_BANK, RESERVE_CENTAVOS, CUSTOMER_CENTAVOS);
            List<Customer> payers = new ArrayList<>();
            payers.add(participants.bankWithCustomer(PAYER_BANK, RESERVE_CENTAVOS, CUSTOMER_CENTAVOS));
            for (int i = 1; i < PAYERS; i++) {
                Customer payer = participants.openCustomer(PAYER_BANK, false);
                participants.fundCustomer(payer, CUSTOMER_CENTAVOS);
                payers.add(payer);
            }
            PaymentBook book = new PaymentBook(pagora.paymentApi());
            List<String> paid = new ArrayList<>();
            for (int i = 0; i < PAYMENTS; i++) {
                paid.add(book.payAccepted(payers.get(i % PAYERS), payee, 1_000 + i));
            }
            StreamReader bank = new StreamReader(pagora.paymentApi().asBank(PAYEE_BANK), PAYEE_BANK);
            bank.pullUntil(
                    messages -> paid.stream().allMatch(id -> messages.containsKey(StreamReader.instructionId(id))),
                    PULLS_MAX);
            PendingChains pendingOfA = a.getBean(PendingChains.class);
            assertThat(pendingOfA.count())
                    .as("A reserved and instructed every payment")
                    .isEqualTo(PAYMENTS);

            MessageListenerContainer answersOfA = answersContainer(a);
            answersOfA.stop();
            ConfigurableApplicationContext b = pagora.startClearingWithParticipants();
            MessageListenerContainer answersOfB = answersContainer(b);
            await(
                    () -> answersOfB.getAssignedPartitions() != null
                            && answersOfB.getAssignedPartitions().size() == Topics.PARTITIONS,
                    "B owns every answers partition",
                    STEP_TIMEOUT);

            Http.Response answered = bank.answer(paid.stream()
                    .map(id -> Map.<String, Object>of("paymentId", id, "decision", "ACCEPT"))
                    .toList());
            assertThat(answered.status())
                    .as("the bank's answers, applied by B: %s", answered)
                    .isEqualTo(200);
            List<String> verdicts = new ArrayList<>();
            answered.json()
                    .path("results")
                    .forEach(result -> verdicts.add(result.path("status").asString()));
            assertThat(verdicts).as("every answer's verdict").hasSize(PAYMENTS).containsOnly("SETTLED");
            assertThat(answersApplied(b)).as("B applied every answer").isEqualTo(PAYMENTS);
            assertThat(answersApplied(a)).as("A applied none").isZero();

            await(() -> pendingOfA.count() == 0, "A's chains resolved by B's outcomes", RESOLVED_WITHIN);
            assertThat(followed(a)).as("A read B's outcomes").isGreaterThanOrEqualTo(PAYMENTS);
            assertThat(b.getBean(PendingChains.class).count())
                    .as("B holds no chain")
                    .isZero();

            Quiescence.await(pagora, PENDING_TIMEOUT.plus(STEP_TIMEOUT));
            Map<PaymentId, View> views = Books.awaitFinalStates(pagora.reporting(), book.accepted(), STEP_TIMEOUT);
            assertThat(views.values()).extracting(View::outcome).containsOnly("SETTLED");
            assertThat(views).hasSize(PAYMENTS);
            Books.assertMoneyInvariants(pagora.ledger(), participants.allAccounts(), Duration.ofSeconds(15));
            Books.assertReadModelEqualsLedger(pagora, participants, book.accepted(), views);
            Books.assertOutcomesAgreeAndNothingLost(pagora, views);
        }
    }

    private static MessageListenerContainer answersContainer(ConfigurableApplicationContext clearing) {
        MessageListenerContainer container =
                clearing.getBean(KafkaListenerEndpointRegistry.class).getListenerContainer(AnswersListener.ID);
        assertThat(container).as("the answers listener").isNotNull();
        return container;
    }

    private static long answersApplied(ConfigurableApplicationContext clearing) {
        return Math.round(clearing.getBean(MeterRegistry.class)
                .get("pagora.clearing.answers.batch.size")
                .summary()
                .totalAmount());
    }

    private static double followed(ConfigurableApplicationContext clearing) {
        return clearing.getBean(MeterRegistry.class)
                .get(OutcomesFollower.FOLLOWED)
                .counter()
                .count();
    }

    private static void await(BooleanSupplier done, String what, Duration within) {
        Poll.upTo(within, Duration.ofMillis(100)).alias(what).until(done::getAsBoolean);
    }
}
