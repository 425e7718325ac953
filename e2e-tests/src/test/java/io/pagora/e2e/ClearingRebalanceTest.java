package io.pagora.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.application.bank.ReceivingBank;
import io.pagora.clearing.domain.BankAnswer;
import io.pagora.e2e.support.Books;
import io.pagora.e2e.support.Books.View;
import io.pagora.e2e.support.Pagora;
import io.pagora.e2e.support.Participants;
import io.pagora.e2e.support.Participants.Customer;
import io.pagora.e2e.support.PaymentBook;
import io.pagora.e2e.support.PaymentBook.Answer;
import io.pagora.e2e.support.PaymentBook.Order;
import io.pagora.e2e.support.Poll;
import io.pagora.e2e.support.Quiescence;
import io.pagora.events.ConsumerGroups;
import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentSettled;
import io.pagora.events.Topics;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.ServerBacked;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.kafka.autoconfigure.DefaultKafkaConsumerFactoryCustomizer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.support.GenericApplicationContext;

/**
 * Two clearing instances in one consumer group, and a rebalance in the middle of a batch: one outcome per payment.
 *
 * <p>Clearing A reserves a poll and waits for its receiving bank, which will accept every payment, but not before the
 * group has given A's partitions away: A overruns its poll interval, Kafka takes its partitions, and clearing B, in the
 * same group, gets the same uncommitted poll. B's bank refuses every payment: B voids the reservations A made and
 * publishes the refusals. Then A's bank answers at last, and A, which no longer owns the partitions, tries to post what
 * B voided. The ledger decides: A must publish what the ledger holds (refused), never "settled"; every outcome ever
 * published for a payment is the same, the read model shows each payment once, and no money moved for them.
 * Afterwards the two instances share the partitions and clear more payments between them.
 */
@ServerBacked
class ClearingRebalanceTest {

    static final int[] BANKS = {11_111_111, 22_222_222, 33_333_333};
    /** Reservations outlive the whole scenario: the point is the two answers racing, not expiry. */
    static final Duration PENDING_TIMEOUT = Duration.ofSeconds(90);

    static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);
    /** A's poll interval: A is thrown out of the group this long after it stopped polling. */
    static final int POLL_INTERVAL_MS = 6_000;

    static final String CLEARING_GROUP = ConsumerGroups.CLEARING;

    /** Accepts every payment; its first call is held until {@link #release}. */
    static final class HeldAcceptingBank implements ReceivingBank {
        final CountDownLatch holding = new CountDownLatch(1);
        final CountDownLatch answered = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        volatile List<Payment> held = List.of();

        @Override
        public List<BankAnswer> decide(List<Payment> payments) {
            if (holding.getCount() > 0) {
                held = List.copyOf(payments);
                holding.countDown();
                await(release);
                answered.countDown();
            }
            return payments.stream().map(payment -> BankAnswer.ACCEPTED).toList();
        }

        void release() {
            release.countDown();
        }
    }

    /** Refuses every payment (a receiving bank that says no: AC06, a blocked account). */
    static final class RefusingBank implements ReceivingBank {
        @Override
        public List<BankAnswer> decide(List<Payment> payments) {
            return payments.stream()
                    .map(payment -> (BankAnswer) new BankAnswer.Refused("AC06"))
                    .toList();
        }
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void aClearingThatLostItsPartitionsMidBatchCannotPublishAnotherOutcome() throws Exception {
        long seed = Long.getLong("pagora.e2e.seed", System.nanoTime());
        Pagora.log("ClearingRebalanceTest, seed %d (rerun with -Dpagora.e2e.seed=%d)", seed, seed);
        Random random = new Random(seed);
        try (Pagora pagora = Pagora.start(new Pagora.Options("postgresql", 1.0, 0.0, PENDING_TIMEOUT, 1))) {
            Participants participants = new Participants(pagora.paymentApi());
            for (int ispb : BANKS) {
                participants.registerBank(ispb, "Banco " + ispb);
                participants.fundReserve(ispb, 100_000_000L);
                for (int i = 0; i < 3; i++) {
                    participants.fundCustomer(participants.openCustomer(ispb, false), 500_000L);
                }
            }
            List<Customer> customers = participants.customers();
            PaymentBook book = new PaymentBook(pagora.paymentApi());
            List<Order> first = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                first.add(order(customers, random));
            }
            assertThat(book.payBatch(first)).allMatch(Answer::accepted);

            HeldAcceptingBank acceptingBank = new HeldAcceptingBank();
            // A's consumers give up their partitions POLL_INTERVAL_MS after their last poll (clearing's own is 5
            // minutes).
            ConfigurableApplicationContext clearingA = pagora.startClearingWithBank(
                    acceptingBank,
                    context -> ((GenericApplicationContext) context)
                            .registerBean(
                                    "shortPollInterval",
                                    DefaultKafkaConsumerFactoryCustomizer.class,
                                    () -> factory -> factory.updateConfigs(
                                            Map.of(ConsumerConfig.MAX_POLL_INTERVAL_MS_CONFIG, POLL_INTERVAL_MS))));
            assertThat(acceptingBank.holding.await(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
                    .as("A asked its bank")
                    .isTrue();
            List<Payment> held = acceptingBank.held;
            Set<PaymentId> heldIds = held.stream().map(Payment::id).collect(Collectors.toSet());
            Pagora.log("clearing A reserved a poll of %d payments and waits for its bank", held.size());

            pagora.startClearingWithBank(new RefusingBank());
            Map<PaymentId, View> refusedByB = Books.awaitFinalStates(
                    pagora.reporting(),
                    book.accepted().stream()
                            .filter(payment -> heldIds.contains(payment.id()))
                            .toList(),
                    STEP_TIMEOUT);
            assertThat(refusedByB.values())
                    .as("B got A's poll in the rebalance and its bank refused it")
                    .allMatch(view -> view.outcome().equals("REJECTED(RECEIVING_BANK_REFUSED)"));
            Pagora.log("clearing B took A's partitions and voided the %d reservations A made", refusedByB.size());

            acceptingBank.release();
            assertThat(acceptingBank.answered.await(10, TimeUnit.SECONDS)).isTrue();
            Pagora.log("A's bank accepted the same payments, after B voided them");

            awaitBothInstancesOwnPartitions(pagora);
            List<Order> second = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                second.add(order(customers, random));
            }
            assertThat(book.payBatch(second)).allMatch(Answer::accepted);
            Books.awaitFinalStates(pagora.reporting(), book.accepted(), Duration.ofSeconds(90));
            Quiescence.await(pagora, STEP_TIMEOUT);
            Map<PaymentId, View> views =
                    Books.awaitFinalStates(pagora.reporting(), book.accepted(), Duration.ofSeconds(30));

            Map<PaymentId, List<String>> publishedForHeld = published(pagora, heldIds);
            assertThat(publishedForHeld.values())
                    .as("A published no 'settled' for a payment B voided")
                    .allMatch(outcomes -> outcomes.stream().allMatch(outcome -> outcome.equals("REJECTED")));
            Pagora.log(
                    "outcomes for the held poll, by payment: %s",
                    publishedForHeld.values().stream()
                            .collect(Collectors.groupingBy(List::size, Collectors.counting())));
            assertThat(clearingA.isActive())
                    .as("A kept running after losing its partitions")
                    .isTrue();
            Set<PaymentId> secondIds = book.accepted().stream()
                    .map(payment -> payment.id())
                    .filter(id -> !heldIds.contains(id))
                    .collect(Collectors.toSet());
            assertThat(secondIds.stream().map(id -> views.get(id).outcome()).collect(Collectors.toSet()))
                    .as("the later payments were shared: A's bank settled some, B's refused others")
                    .contains("SETTLED", "REJECTED(RECEIVING_BANK_REFUSED)");
            Pagora.log(
                    "%d payments final exactly once: %s",
                    views.size(),
                    views.values().stream().collect(Collectors.groupingBy(View::outcome, Collectors.counting())));
            Books.assertMoneyInvariants(pagora.ledger(), participants.allAccounts(), Duration.ofSeconds(10));
            Books.assertReadModelEqualsLedger(pagora, participants, book.accepted(), views);
            Books.assertOutcomesAgreeAndNothingLost(pagora, views);
        }
    }

    /** Both instances are members of clearing's group again, each with partitions of the requests topic. */
    private static void awaitBothInstancesOwnPartitions(Pagora pagora) throws Exception {
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, pagora.kafka().bootstrapServers()))) {
            Poll.upTo(STEP_TIMEOUT, Duration.ofMillis(200))
                    .alias("clearing A rejoined the group after losing its partitions")
                    .until(() -> {
                        ConsumerGroupDescription group = admin.describeConsumerGroups(List.of(CLEARING_GROUP))
                                .all()
                                .get(10, TimeUnit.SECONDS)
                                .get(CLEARING_GROUP);
                        return group.members().stream()
                                        .filter(member -> member.assignment().topicPartitions().stream()
                                                .anyMatch(partition ->
                                                        partition.topic().equals(Topics.PAYMENTS_REQUESTED)))
                                        .count()
                                == 2;
                    });
            Pagora.log("both clearing instances own partitions of %s", Topics.PAYMENTS_REQUESTED);
        }
    }

    private static Map<PaymentId, List<String>> published(Pagora pagora, Set<PaymentId> ids) {
        return pagora.kafka().events(Topics.PAYMENT_OUTCOMES).stream()
                .filter(event -> ids.contains(PaymentId.parse(event.paymentId())))
                .collect(Collectors.groupingBy(
                        event -> PaymentId.parse(event.paymentId()),
                        Collectors.mapping(ClearingRebalanceTest::kind, Collectors.toList())));
    }

    private static String kind(PaymentEvent event) {
        return switch (event) {
            case PaymentSettled ignored -> "SETTLED";
            case PaymentRejected ignored -> "REJECTED";
            default -> event.getClass().getSimpleName();
        };
    }

    private static Order order(List<Customer> customers, Random random) {
        Customer payer = customers.get(random.nextInt(customers.size()));
        Customer payee;
        do {
            payee = customers.get(random.nextInt(customers.size()));
        } while (payee.equals(payer));
        return Order.of(payer.id(), payee.id(), 1 + random.nextInt(10_000));
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(STEP_TIMEOUT.toSeconds() * 2, TimeUnit.SECONDS)) {
                throw new AssertionError("the held bank call was never released");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
