package io.pagora.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.adapter.bank.SimulatedReceivingBank;
import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.clearing.application.bank.ReceivingBank;
import io.pagora.clearing.domain.BankAnswer;
import io.pagora.e2e.support.Books;
import io.pagora.e2e.support.Books.View;
import io.pagora.e2e.support.Pagora;
import io.pagora.e2e.support.Participants;
import io.pagora.e2e.support.Participants.Customer;
import io.pagora.e2e.support.PaymentBook;
import io.pagora.e2e.support.PaymentBook.Accepted;
import io.pagora.e2e.support.PaymentBook.Answer;
import io.pagora.e2e.support.PaymentBook.Order;
import io.pagora.e2e.support.Quiescence;
import io.pagora.events.ConsumerGroups;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.Topics;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Transfer;
import io.pagora.settlement.domain.LegId;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.ServerBacked;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;

/**
 * Proves that settlement stays exactly-once when the clearing consumer dies in the middle of a batch
 * and is started again — with payment-api and reporting-service running throughout, a real Kafka
 * broker and the PostgreSQL ledger.
 *
 * <ol>
 *   <li>60 payments are accepted while clearing is down. Clearing #1 starts, reserves a poll, and asks
 *       the receiving bank — a {@link ReceivingBank} bean of the test's own (pagora.clearing.receiving-bank=provided, clearing's
 *       extension point for a real connector) and holds the call. While it is held, the test sees the
 *       poll's chains pending in the ledger, nothing posted, nothing final in the read model. Then the
 *       process "dies" there (a {@link ProcessKilled} error: no retry, no commit, nothing published)
 *       and its Spring context is closed: between pending and post.
 *   <li>Clearing #2 starts, gets the uncommitted poll again, completes it — and dies right after its
 *       outcomes are acknowledged by Kafka, before the poll's offsets are committed.
 *   <li>Clearing #3 starts, gets the same poll a third time (so its outcomes are published twice), and
 *       clears 30 more payments accepted meanwhile.
 * </ol>
 * Then: every payment has exactly one final state in the read model (the one the deterministic bank
 * called for), the duplicated outcomes changed nothing, the ledger's balances equal the settled
 * payments, SETTLED ⇔ post legs exist, and the money invariants hold.
 */
@ServerBacked
class ClearingCrashTest {

    static final double ACCEPT_RATE = 0.75;
    static final int[] BANKS = {11_111_111, 22_222_222, 33_333_333};
    /** Long enough that reservations outlive every restart: the point is completing them, not expiry. */
    static final Duration PENDING_TIMEOUT = Duration.ofSeconds(60);

    static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);

    /** Stands for the clearing process dying at this point (kill -9): an {@link Error}, so no retry or
     *  error handler treats it as a failed batch, and Spring Kafka stops the listener without committing. */
    static final class ProcessKilled extends Error {
        ProcessKilled(String where) {
            super("clearing process killed " + where);
        }
    }

    /** Answers like clearing's simulator (deterministic per payment id), but holds its first call until killed. */
    static final class HeldBank implements ReceivingBank {
        private final SimulatedReceivingBank answers = new SimulatedReceivingBank(ACCEPT_RATE, 0.0, Duration.ZERO);
        final CountDownLatch holding = new CountDownLatch(1);
        final CountDownLatch died = new CountDownLatch(1);
        private final CountDownLatch kill = new CountDownLatch(1);
        volatile List<Payment> held = List.of();

        @Override
        public List<BankAnswer> decide(List<Payment> payments) {
            if (holding.getCount() == 0) {
                return answers.decide(payments);
            }
            held = List.copyOf(payments);
            holding.countDown();
            try {
                if (!kill.await(STEP_TIMEOUT.toSeconds() * 2, TimeUnit.SECONDS)) {
                    throw new ProcessKilled("after holding the bank call too long");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            died.countDown();
            throw new ProcessKilled("while waiting for the receiving bank (chains pending, nothing posted)");
        }

        void kill() {
            kill.countDown();
        }
    }

    /** Decorates clearing's outcome publisher: the first publication goes out, then the process dies. */
    static final class KillAfterPublishing implements BeanPostProcessor {
        final CountDownLatch died = new CountDownLatch(1);
        volatile List<PaymentOutcome> published = List.of();

        @Override
        public Object postProcessAfterInitialization(Object bean, String beanName) {
            if (!(bean instanceof OutcomePublisher delegate)) {
                return bean;
            }
            return (OutcomePublisher) (outcomes, payerOnly) -> {
                delegate.publish(outcomes, payerOnly); // returns once Kafka acknowledged every outcome
                if (died.getCount() > 0) {
                    published = List.copyOf(outcomes);
                    died.countDown();
                    throw new ProcessKilled("after publishing outcomes, before committing the poll's offsets");
                }
            };
        }
    }

    final SimulatedReceivingBank bankSimulator = new SimulatedReceivingBank(ACCEPT_RATE, 0.0, Duration.ZERO);

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void killedAndRestartedClearingSettlesEveryPaymentExactlyOnce() throws Exception {
        long seed = Long.getLong("pagora.e2e.seed", System.nanoTime());
        Pagora.log("ClearingCrashTest, seed %d (rerun with -Dpagora.e2e.seed=%d)", seed, seed);
        Random random = new Random(seed);
        try (Pagora pagora = Pagora.start(new Pagora.Options("postgresql", ACCEPT_RATE, 0.0, PENDING_TIMEOUT, 1))) {
            Participants participants = new Participants(pagora.paymentApi());
            for (int ispb : BANKS) {
                participants.registerBank(ispb, "Banco " + ispb);
                participants.fundReserve(ispb, 100_000_000L);
                for (int i = 0; i < 4; i++) {
                    boolean nearlyEmpty = i == 0;
                    Customer customer = participants.openCustomer(ispb, nearlyEmpty);
                    participants.fundCustomer(customer, nearlyEmpty ? 100L : 500_000L);
                }
            }
            List<Customer> funded = participants.customers().stream()
                    .filter(customer -> !customer.nearlyEmpty())
                    .toList();
            PaymentBook book = new PaymentBook(pagora.paymentApi());

            // Batch A, accepted while clearing is down: one poll will hold many of them.
            List<Order> batchA = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                batchA.add(normal(funded, random));
            }
            assertThat(book.payBatch(batchA)).allMatch(Answer::accepted);
            awaitStats(
                    pagora, stats -> stats.path("counts").path("ACCEPTED").asLong() == 60, "60 requested, none final");

            // Clearing #1: reserves a poll, then dies while the receiving bank holds the call.
            HeldBank bank = new HeldBank();
            ConfigurableApplicationContext first = pagora.startClearingWithBank(bank);
            assertThat(bank.holding.await(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                    .as("clearing asked the bank")
                    .isTrue();
            List<Payment> held = bank.held;
            Pagora.log("clearing #1 reserved a poll of %d payments and is waiting for the receiving bank", held.size());
            assertReservedNotPosted(pagora, participants, held, "while the bank call is held");
            Pagora.log(
                    "killing clearing #1 (the ERRORs 'Stopping container due to an Error' that follow are the simulated kill)");
            bank.kill();
            assertThat(bank.died.await(10, TimeUnit.SECONDS)).isTrue();
            first.close();
            Pagora.log("clearing #1 killed between pending and post, context closed");
            assertReservedNotPosted(pagora, participants, held, "after the kill");
            assertThat(pagora.kafka().lag(ConsumerGroups.CLEARING, Topics.PAYMENTS_REQUESTED))
                    .as("the held poll was not committed")
                    .isGreaterThanOrEqualTo(held.size());

            // Clearing #2: completes the redelivered poll, publishes, dies before committing.
            KillAfterPublishing killer = new KillAfterPublishing();
            Pagora.log("starting clearing #2, to be killed right after its first outcomes are acknowledged");
            ConfigurableApplicationContext second =
                    pagora.startClearing(context -> context.getBeanFactory().addBeanPostProcessor(killer));
            assertThat(killer.died.await(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                    .as("clearing #2 published")
                    .isTrue();
            second.close();
            Set<PaymentId> publishedTwice = killer.published.stream()
                    .map(outcome -> PaymentId.parse(outcome.paymentId()))
                    .collect(Collectors.toSet());
            Pagora.log("clearing #2 published %d outcomes and was killed before committing", publishedTwice.size());
            assertThat(publishedTwice)
                    .as("clearing #2 completed a redelivered poll")
                    .isNotEmpty();
            Pagora.log(
                    "of which %d had been reserved by clearing #1",
                    held.stream()
                            .map(Payment::id)
                            .filter(publishedTwice::contains)
                            .count());
            assertThat(pagora.kafka().lag(ConsumerGroups.CLEARING, Topics.PAYMENTS_REQUESTED))
                    .as("the completed poll was not committed either")
                    .isGreaterThanOrEqualTo(publishedTwice.size());

            // Clearing #3: the same poll a third time, and new payments alongside.
            pagora.startClearing();
            List<Order> batchB = new ArrayList<>();
            for (int i = 0; i < 28; i++) {
                batchB.add(normal(funded, random));
            }
            List<Customer> nearlyEmpty = participants.customers().stream()
                    .filter(Customer::nearlyEmpty)
                    .toList();
            batchB.add(Order.of(nearlyEmpty.get(0).id(), funded.get(0).id(), 50_000L));
            batchB.add(Order.of(nearlyEmpty.get(1).id(), funded.get(5).id(), 50_000L));
            for (Order order : batchB) {
                assertThat(book.pay(order).accepted()).as("%s accepted", order).isTrue();
            }

            Books.awaitFinalStates(pagora.reporting(), book.accepted(), Duration.ofSeconds(90));
            Quiescence.await(pagora, STEP_TIMEOUT);
            Map<PaymentId, View> views =
                    Books.awaitFinalStates(pagora.reporting(), book.accepted(), Duration.ofSeconds(30));

            for (Accepted payment : book.accepted()) {
                String expected = participants.customer(payment.payer()).nearlyEmpty()
                        ? "REJECTED(INSUFFICIENT_FUNDS)"
                        : bankSimulator.answer(payment.id()) instanceof BankAnswer.Accepted
                                ? "SETTLED"
                                : "REJECTED(RECEIVING_BANK_REFUSED)";
                assertThat(views.get(payment.id()).outcome())
                        .as("outcome of %s", payment)
                        .isEqualTo(expected);
            }
            Map<PaymentId, Long> outcomesPublished = pagora.kafka().events(Topics.PAYMENT_OUTCOMES).stream()
                    .collect(Collectors.groupingBy(event -> PaymentId.parse(event.paymentId()), Collectors.counting()));
            for (PaymentId id : publishedTwice) {
                assertThat(outcomesPublished.get(id))
                        .as("the outcome of %s was published again after the restart", id)
                        .isGreaterThanOrEqualTo(2L);
            }
            Pagora.log(
                    "%d payments final exactly once (%s); %d outcomes published twice were deduplicated",
                    views.size(),
                    views.values().stream().collect(Collectors.groupingBy(View::outcome, Collectors.counting())),
                    publishedTwice.size());
            Books.assertMoneyInvariants(pagora.ledger(), participants.allAccounts(), Duration.ofSeconds(10));
            Books.assertReadModelEqualsLedger(pagora, participants, book.accepted(), views);
            Books.assertOutcomesAgreeAndNothingLost(pagora, views);
        }
    }

    private static Order normal(List<Customer> funded, Random random) {
        Customer payer = funded.get(random.nextInt(funded.size()));
        Customer payee;
        do {
            payee = funded.get(random.nextInt(funded.size()));
        } while (payee.equals(payer));
        return Order.of(payer.id(), payee.id(), 1 + random.nextInt(10_000));
    }

    /**
     * The held poll's chains are all pending in the ledger (the payers' money held, not moved), none is
     * posted or voided, and the read model shows none of its payments final.
     */
    private static void assertReservedNotPosted(
            Pagora pagora, Participants participants, List<Payment> held, String when) {
        List<Id128> pendingLegs = new ArrayList<>();
        List<Id128> resolvingLegs = new ArrayList<>();
        long heldCentavos = 0;
        for (Payment payment : held) {
            int legs = payment.onUs() ? 1 : 3;
            for (int leg = 1; leg <= legs; leg++) {
                pendingLegs.add(LegId.of(payment.id(), LegId.Phase.PENDING, leg));
                resolvingLegs.add(LegId.of(payment.id(), LegId.Phase.POST, leg));
                resolvingLegs.add(LegId.of(payment.id(), LegId.Phase.VOID, leg));
            }
            heldCentavos += payment.amountCentavos();
        }
        assertThat(pagora.ledger().lookupTransfers(pendingLegs).stream()
                        .map(Transfer::id)
                        .toList())
                .as("every leg of the held poll is pending %s", when)
                .containsExactlyInAnyOrderElementsOf(pendingLegs);
        assertThat(pagora.ledger().lookupTransfers(resolvingLegs))
                .as("nothing posted or voided %s", when)
                .isEmpty();
        List<Id128> customers =
                participants.customers().stream().map(Customer::id).toList();
        long pendingDebits = pagora.ledger().lookupAccounts(customers).stream()
                .mapToLong(Account::debitsPending)
                .sum();
        assertThat(pendingDebits)
                .as("the payers' money is held, exactly the poll's amounts, %s", when)
                .isEqualTo(heldCentavos);
        Set<String> notFinal = new HashSet<>();
        for (Payment payment : held) {
            JsonNode view = pagora.reporting()
                    .asBankOf(payment.payer())
                    .get("/payments/" + payment.id())
                    .json();
            notFinal.add(view.path("status").asString());
        }
        assertThat(notFinal).as("nothing final in the read model %s", when).containsOnly("ACCEPTED");
    }

    private static void awaitStats(Pagora pagora, Function<JsonNode, Boolean> condition, String what) {
        long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
        JsonNode stats = null;
        while (System.nanoTime() < deadline) {
            stats = pagora.reporting().asOperator().get("/stats").json();
            if (condition.apply(stats)) {
                return;
            }
            Books.sleep(200);
        }
        throw new AssertionError("the read model never showed " + what + ": " + stats);
    }
}
