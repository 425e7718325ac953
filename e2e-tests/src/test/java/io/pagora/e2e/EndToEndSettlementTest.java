package io.pagora.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.adapter.bank.SimulatedReceivingBank;
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
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.ServerBacked;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves that Pagora, as a whole, settles every accepted payment exactly once and that its books
 * balance — the three services together (payment-api, clearing-service, reporting-service) on a real
 * Kafka broker, one PostgreSQL database and the configured ledger, driven only through their HTTP APIs,
 * over mutual TLS: each request presents the certificate of whoever may send it (the operator sets banks up,
 * each bank its customers and its payers' orders, a payment is read by its payer's bank).
 *
 * <p>The scenario registers 3 banks, opens 30 customers (6 of them nearly empty), funds reserves and
 * customers, then sends about 300 payment orders, singly (concurrently) and in batches: interbank and
 * on-us payments; payments from nearly empty accounts (refused by the ledger: insufficient funds);
 * orders naming unknown accounts (refused by the API, 422, never accepted); the same order again under
 * the same Idempotency-Key — sequentially, concurrently, within one batch, across single and batch,
 * and long after the payment's outcome (same payment id, money moved once); a used key with another
 * amount (422). (Retries of a payment the ledger refused are {@link RetryOfRefusedPaymentTest}'s.) The simulated receiving bank refuses a deterministic share of payments and never
 * answers another share, which expire after a 2 s pending timeout.
 *
 * <p>Then it proves, after every consumer caught up:
 * <ul>
 *   <li>every accepted payment has exactly one final state in the read model, the one its case calls
 *       for (the bank simulator is a pure function of the payment id, so every outcome is predicted), and
 *       the read model holds no other payment;
 *   <li>the money invariants, through the ledger port: Σ debits = Σ credits (posted and pending) over
 *       every account, no limited account below zero, no reservation left pending;
 *   <li>read model = ledger: every account's ledger balance is its funding plus the SETTLED payments the
 *       read model shows; a payment is SETTLED if and only if its post legs exist; bank positions agree;
 *   <li>every outcome clearing published agrees with the read model, nothing was dead-lettered, and
 *       reporting raised no integrity alarm.
 * </ul>
 * It runs on the PostgreSQL ledger, and on TigerBeetle when {@code TIGERBEETLE_BIN} names a binary
 * (otherwise that variant is reported SKIPPED, with the reason).
 */
@ServerBacked
class EndToEndSettlementTest {

    static final double ACCEPT_RATE = 0.8;
    static final double NO_ANSWER_RATE = 0.1;
    static final int[] BANKS = {10_000_001, 20_000_002, 30_000_003};
    static final int UNKNOWN_BANK = 40_000_004;
    static final int CUSTOMERS_PER_BANK = 10;
    static final int NEARLY_EMPTY_PER_BANK = 2;
    static final long RESERVE_FUNDING_CENTAVOS = 1_000_000_000L;
    static final long CUSTOMER_FUNDING_CENTAVOS = 1_000_000L;
    static final long NEARLY_EMPTY_FUNDING_CENTAVOS = 100L;
    /** Normal payments are at most this: no funded payer can run out, whatever the order of settlement. */
    static final long NORMAL_AMOUNT_MAX_CENTAVOS = 5_000L;

    static final long OVERDRAFT_AMOUNT_CENTAVOS = 50_000L;
    static final Duration FINAL_STATES_TIMEOUT = Duration.ofSeconds(90);

    /** The same simulator clearing runs, to predict its answers (a pure function of the payment id). */
    final SimulatedReceivingBank bankSimulator = new SimulatedReceivingBank(ACCEPT_RATE, NO_ANSWER_RATE, Duration.ZERO);

    @ParameterizedTest(name = "ledger backend: {0}")
    @ValueSource(strings = {"postgresql", "tigerbeetle"})
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void everyAcceptedPaymentSettlesExactlyOnceAndTheBooksBalance(String backend) throws Exception {
        long seed = Long.getLong("pagora.e2e.seed", System.nanoTime());
        Pagora.log("EndToEndSettlementTest on %s, seed %d (rerun with -Dpagora.e2e.seed=%d)", backend, seed, seed);
        Random random = new Random(seed);
        try (Pagora pagora =
                Pagora.start(new Pagora.Options(backend, ACCEPT_RATE, NO_ANSWER_RATE, Duration.ofSeconds(2), 2))) {
            pagora.startClearing();
            Participants participants = setUpParticipants(pagora);
            PaymentBook book = new PaymentBook(pagora.paymentApi());
            Scenario scenario = new Scenario(participants, random);

            sendEverything(book, scenario);
            Pagora.log(
                    "sent: %d distinct payments accepted (%d acceptances, %d replays)",
                    book.accepted().size(), book.acceptances(), book.replays());

            Books.awaitFinalStates(pagora.reporting(), book.accepted(), FINAL_STATES_TIMEOUT);
            replayLate(book, scenario);
            Quiescence.await(pagora, Duration.ofSeconds(60));
            Map<PaymentId, View> views =
                    Books.awaitFinalStates(pagora.reporting(), book.accepted(), FINAL_STATES_TIMEOUT);

            assertExpectedOutcomes(book, participants, views);
            Books.assertMoneyInvariants(pagora.ledger(), participants.allAccounts(), Duration.ofSeconds(15));
            Books.assertReadModelEqualsLedger(pagora, participants, book.accepted(), views);
            Books.assertOutcomesAgreeAndNothingLost(pagora, views);
        }
    }

    private Participants setUpParticipants(Pagora pagora) {
        Participants participants = new Participants(pagora.paymentApi());
        for (int ispb : BANKS) {
            participants.registerBank(ispb, "Banco " + ispb);
            participants.fundReserve(ispb, RESERVE_FUNDING_CENTAVOS);
            for (int i = 0; i < CUSTOMERS_PER_BANK; i++) {
                boolean nearlyEmpty = i < NEARLY_EMPTY_PER_BANK;
                Customer customer = participants.openCustomer(ispb, nearlyEmpty);
                participants.fundCustomer(
                        customer, nearlyEmpty ? NEARLY_EMPTY_FUNDING_CENTAVOS : CUSTOMER_FUNDING_CENTAVOS);
            }
        }
        return participants;
    }

    /** The orders of the scenario, by kind, drawn from a seeded random source. */
    static final class Scenario {
        final Random random;
        final List<Customer> funded;
        final List<Customer> nearlyEmpty;
        /** Orders whose acceptance (later replays, conflicts) the scenario refers back to. */
        final List<Order> singlesAccepted = Collections.synchronizedList(new ArrayList<>());

        Scenario(Participants participants, Random random) {
            this.random = random;
            this.funded = participants.customers().stream()
                    .filter(customer -> !customer.nearlyEmpty())
                    .toList();
            this.nearlyEmpty = participants.customers().stream()
                    .filter(Customer::nearlyEmpty)
                    .toList();
        }

        /** A payment between funded customers: on-us about a third of the time. Nearly empty ones never receive. */
        Order normal() {
            Customer payer = funded.get(random.nextInt(funded.size()));
            boolean onUs = random.nextInt(3) == 0;
            List<Customer> payees = funded.stream()
                    .filter(customer -> !customer.equals(payer) && (customer.ispb() == payer.ispb()) == onUs)
                    .toList();
            Customer payee = payees.get(random.nextInt(payees.size()));
            return Order.of(payer.id(), payee.id(), 1 + random.nextInt((int) NORMAL_AMOUNT_MAX_CENTAVOS));
        }

        /** More than a nearly empty payer has: the ledger refuses the reservation. */
        Order overdraft() {
            Customer payer = nearlyEmpty.get(random.nextInt(nearlyEmpty.size()));
            Customer payee = funded.get(random.nextInt(funded.size()));
            return Order.of(payer.id(), payee.id(), OVERDRAFT_AMOUNT_CENTAVOS);
        }

        /** An account the ledger does not have: at a known bank, at an unknown bank, as payer or payee. */
        Order unknownAccount(int variant) {
            Customer known = funded.get(random.nextInt(funded.size()));
            Id128 unknown = switch (variant % 3) {
                case 0 -> ChartOfAccounts.customer(new BankId(known.ispb()), 900_000_000L + random.nextInt(1_000_000));
                case 1 -> ChartOfAccounts.customer(new BankId(UNKNOWN_BANK), 1 + random.nextInt(1_000));
                default ->
                    ChartOfAccounts.customer(new BankId(BANKS[random.nextInt(BANKS.length)]), 800_000_000L + variant);
            };
            return variant % 2 == 0 ? Order.of(known.id(), unknown, 1_00) : Order.of(unknown, known.id(), 1_00);
        }
    }

    /** Wave one: about 300 orders of every kind, singles from 8 threads at once and batches alongside. */
    private void sendEverything(PaymentBook book, Scenario scenario) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Callable<Void>> tasks = new ArrayList<>();
            // 120 single normal payments.
            for (int i = 0; i < 120; i++) {
                Order order = scenario.normal();
                tasks.add(() -> {
                    expectAccepted(book.pay(order), order);
                    scenario.singlesAccepted.add(order);
                    return null;
                });
            }
            // 6 single overdrafts: accepted by the API (it does not know balances), refused by the ledger.
            for (int i = 0; i < 6; i++) {
                Order order = scenario.overdraft();
                tasks.add(() -> {
                    expectAccepted(book.pay(order), order);
                    return null;
                });
            }
            // 6 single orders naming unknown accounts: 422, never accepted.
            for (int i = 0; i < 6; i++) {
                Order order = scenario.unknownAccount(i);
                tasks.add(() -> {
                    expectRefused(book.pay(order), "unknown-account", order);
                    return null;
                });
            }
            // 6 orders sent twice at the same moment with the same key: one payment.
            for (int i = 0; i < 6; i++) {
                Order order = scenario.normal();
                tasks.add(() -> {
                    expectAccepted(book.pay(order), order);
                    return null;
                });
                tasks.add(() -> {
                    expectAccepted(book.pay(order), order);
                    return null;
                });
            }
            // 3 batches of 45: normal payments, in-batch duplicates, overdrafts, unknown accounts, an in-batch
            // conflict.
            for (int batch = 0; batch < 3; batch++) {
                List<Order> orders = new ArrayList<>();
                List<Predicate<Answer>> expectations = new ArrayList<>();
                for (int i = 0; i < 36; i++) {
                    Order order = scenario.normal();
                    orders.add(order);
                    expectations.add(answer -> answer.accepted() && !answer.replayed());
                }
                for (int i = 0; i < 2; i++) { // the same order twice in one batch: the second is a replay
                    Order order = orders.get(i * 7);
                    orders.add(order);
                    expectations.add(answer -> answer.accepted() && answer.replayed());
                }
                for (int i = 0; i < 2; i++) {
                    orders.add(scenario.overdraft());
                    expectations.add(answer -> answer.accepted() && !answer.replayed());
                }
                for (int i = 0; i < 3; i++) {
                    orders.add(scenario.unknownAccount(batch * 3 + i));
                    expectations.add(answer -> isRefusal(answer, "unknown-account"));
                }
                Order first = scenario.normal();
                orders.add(first);
                expectations.add(answer -> answer.accepted() && !answer.replayed());
                orders.add(first.withAmount(first.amountCentavos() + 1)); // same key, another request, same batch
                expectations.add(answer -> isRefusal(answer, "idempotency-key-reused"));
                tasks.add(() -> {
                    expectBatch(book, orders, expectations);
                    return null;
                });
            }
            Collections.shuffle(tasks, scenario.random);
            runAll(clients, tasks);

            // Wave one, b: orders that refer to accepted ones.
            List<Order> singles = new ArrayList<>(scenario.singlesAccepted);
            List<Callable<Void>> followUps = new ArrayList<>();
            for (Order order : singles.subList(0, 10)) { // the same request again: the same payment, replayed
                followUps.add(() -> {
                    Answer answer = book.pay(order);
                    expectAccepted(answer, order);
                    assertThat(answer.replayed())
                            .as("a repeated order is a replay: %s", order)
                            .isTrue();
                    return null;
                });
            }
            for (Order order : singles.subList(10, 14)) { // a used key with another amount: 422
                followUps.add(() -> {
                    expectRefused(
                            book.pay(order.withAmount(order.amountCentavos() + 100)), "idempotency-key-reused", order);
                    return null;
                });
            }
            // Singles replayed inside a batch, and two used keys with other amounts in the same batch.
            List<Order> mixed = new ArrayList<>(singles.subList(14, 19));
            mixed.add(singles.get(19).withAmount(singles.get(19).amountCentavos() + 1));
            mixed.add(singles.get(20).withAmount(singles.get(20).amountCentavos() + 2));
            List<Predicate<Answer>> mixedExpectations = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                mixedExpectations.add(answer -> answer.accepted() && answer.replayed());
            }
            mixedExpectations.add(answer -> isRefusal(answer, "idempotency-key-reused"));
            mixedExpectations.add(answer -> isRefusal(answer, "idempotency-key-reused"));
            followUps.add(() -> {
                expectBatch(book, mixed, mixedExpectations);
                return null;
            });
            runAll(clients, followUps);
        } finally {
            clients.shutdownNow();
        }
    }

    /** Wave two: the same orders again long after their outcome — one of each outcome; nothing may change. */
    private void replayLate(PaymentBook book, Scenario scenario) {
        Map<String, Order> byOutcome = new LinkedHashMap<>();
        for (Order order : scenario.singlesAccepted) {
            Answer answer = book.pay(order);
            expectAccepted(answer, order);
            String predicted = predictedAnswer(PaymentId.parse(answer.paymentId()));
            byOutcome.putIfAbsent(predicted, order);
            if (byOutcome.size() == 3) {
                break;
            }
        }
        Pagora.log("replayed late: one payment per bank answer %s", byOutcome.keySet());
    }

    private void assertExpectedOutcomes(PaymentBook book, Participants participants, Map<PaymentId, View> views) {
        Map<String, Long> counts = new LinkedHashMap<>();
        for (Accepted payment : book.accepted()) {
            String expected = participants.customer(payment.payer()).nearlyEmpty()
                    ? "REJECTED(INSUFFICIENT_FUNDS)"
                    : switch (predictedAnswer(payment.id())) {
                        case "accepted" -> "SETTLED";
                        case "refused" -> "REJECTED(RECEIVING_BANK_REFUSED)";
                        default -> "EXPIRED";
                    };
            assertThat(views.get(payment.id()).outcome())
                    .as("outcome of %s", payment)
                    .isEqualTo(expected);
            counts.merge(expected + (payment.onUs() ? " on-us" : " interbank"), 1L, Long::sum);
        }
        Pagora.log("outcomes as predicted: %s", counts);
        Map<String, Long> byOutcome =
                views.values().stream().collect(Collectors.groupingBy(View::outcome, Collectors.counting()));
        assertThat(byOutcome)
                .as("every kind of outcome happened")
                .containsKeys("SETTLED", "EXPIRED", "REJECTED(INSUFFICIENT_FUNDS)", "REJECTED(RECEIVING_BANK_REFUSED)");
        assertThat(book.accepted().stream()
                        .filter(Accepted::onUs)
                        .filter(p -> views.get(p.id()).settled()))
                .as("on-us payments settled")
                .isNotEmpty();
    }

    private String predictedAnswer(PaymentId id) {
        return switch (bankSimulator.answer(id)) {
            case BankAnswer.Accepted ignored -> "accepted";
            case BankAnswer.Refused ignored -> "refused";
            case BankAnswer.NoAnswer ignored -> "no answer";
        };
    }

    private static void expectAccepted(Answer answer, Order order) {
        assertThat(answer.accepted()).as("%s accepted: %s", order, answer).isTrue();
    }

    private static void expectRefused(Answer answer, String problemType, Order order) {
        assertThat(answer).as("%s refused", order).isEqualTo(new Answer(422, null, false, problemType));
    }

    private static boolean isRefusal(Answer answer, String problemType) {
        return !answer.accepted() && answer.status() == 422 && problemType.equals(answer.problemType());
    }

    private static void expectBatch(PaymentBook book, List<Order> orders, List<Predicate<Answer>> expectations) {
        List<Answer> answers = book.payBatch(orders);
        for (int i = 0; i < orders.size(); i++) {
            assertThat(expectations.get(i).test(answers.get(i)))
                    .as("batch item %d %s answered %s", i, orders.get(i), answers.get(i))
                    .isTrue();
        }
    }

    private static void runAll(ExecutorService clients, List<Callable<Void>> tasks) throws InterruptedException {
        List<Future<Void>> futures = clients.invokeAll(tasks, 120, TimeUnit.SECONDS);
        for (Future<Void> future : futures) {
            try {
                future.get();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof AssertionError assertion) {
                    throw assertion;
                }
                throw new AssertionError("a client failed", e.getCause());
            }
        }
    }
}
