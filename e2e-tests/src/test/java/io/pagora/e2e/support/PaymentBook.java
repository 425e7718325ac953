package io.pagora.e2e.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.access.Caller;
import io.pagora.testing.Http;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;

/**
 * Sends payment orders to payment-api (POST /payments and POST /payments/batch) and keeps the books
 * of what it answered: which payments were accepted under which Idempotency-Key. Every accepted
 * payment must later reach exactly one final state; every refused order must never show up anywhere.
 * Each order is sent by the payer's bank, presenting that bank's certificate: only it may move its
 * customer's money (an Idempotency-Key is that bank's). Thread-safe: orders are sent from several threads at once.
 */
public final class PaymentBook {

    /** One payment order: the client's key and what it asks for. */
    public record Order(String key, Id128 payer, Id128 payee, long amountCentavos) {

        public static Order of(Id128 payer, Id128 payee, long amountCentavos) {
            return new Order(UUID.randomUUID().toString(), payer, payee, amountCentavos);
        }

        /** The same key with another amount: a different request under a used key. */
        public Order withAmount(long otherAmountCentavos) {
            return new Order(key, payer, payee, otherAmountCentavos);
        }

        /** The request body of POST /payments. */
        public Map<String, Object> body() {
            return Map.of(
                    "payerAccountId",
                    payer.toString(),
                    "payeeAccountId",
                    payee.toString(),
                    "amountCentavos",
                    amountCentavos,
                    "currency",
                    "BRL");
        }

        /** The bank that holds the payer account: the one that sends the order. */
        public BankId payerBank() {
            return Service.bankOf(payer);
        }

        Map<String, Object> batchItem() {
            Map<String, Object> item = new LinkedHashMap<>(body());
            item.put("idempotencyKey", key);
            return item;
        }
    }

    /** An accepted payment, as payment-api named it. */
    public record Accepted(PaymentId id, Id128 payer, Id128 payee, long amountCentavos) {
        public boolean onUs() {
            return ChartOfAccounts.bankOf(payer).equals(ChartOfAccounts.bankOf(payee));
        }

        public Payment asPayment() {
            return new Payment(id, payer, payee, amountCentavos);
        }
    }

    /** What payment-api answered one order: accepted (perhaps replayed) with an id, or a problem type. */
    public record Answer(int status, String paymentId, boolean replayed, String problemType) {
        public boolean accepted() {
            return paymentId != null;
        }
    }

    private final Service paymentApi;
    private final Map<PaymentId, Accepted> accepted = new LinkedHashMap<>();
    /** By payer bank and key (keys are each bank's own). */
    private final Map<String, PaymentId> paymentIdByKey = new LinkedHashMap<>();

    private final AtomicInteger acceptances = new AtomicInteger();
    private final AtomicInteger replays = new AtomicInteger();

    public PaymentBook(Service paymentApi) {
        this.paymentApi = paymentApi;
    }

    /** POST /payments by the payer's bank: 202 with a payment id (recorded), or a problem+json. */
    /** Pays and expects the payment accepted (202); its id. */
    public String payAccepted(Participants.Customer payer, Participants.Customer payee, long amountCentavos) {
        Answer answer = pay(Order.of(payer.id(), payee.id(), amountCentavos));
        org.assertj.core.api.Assertions.assertThat(answer.accepted())
                .as("%s", answer)
                .isTrue();
        return answer.paymentId();
    }

    public Answer pay(Order order) {
        Http.Response response = paymentApi
                .as(new Caller.Bank(order.payerBank()))
                .post("/payments", order.body(), "Idempotency-Key", order.key());
        if (response.status() == 202) {
            JsonNode body = response.json();
            String paymentId = body.path("paymentId").asString();
            assertThat(body.path("status").asString()).isEqualTo("ACCEPTED");
            assertThat(response.header("Location"))
                    .as("the status is read from the reporting-service")
                    .endsWith("/payments/" + paymentId);
            boolean replayed = Boolean.parseBoolean(response.header("Idempotent-Replayed"));
            record(order, paymentId, replayed);
            return new Answer(202, paymentId, replayed, null);
        }
        assertThat(response.headers().firstValue("Content-Type").orElse(""))
                .as("a refusal is problem+json: %s", response)
                .startsWith("application/problem+json");
        return new Answer(response.status(), null, false, response.problemType());
    }

    /**
     * The orders in batches, as their banks would send them: one POST /payments/batch per payer's bank (in the
     * order of each bank's first order), each holding that bank's orders in their order; one answer per order,
     * in the orders' order (each accepted one recorded).
     */
    public List<Answer> payBatch(List<Order> orders) {
        Map<BankId, List<Integer>> positionsByBank = new LinkedHashMap<>();
        for (int i = 0; i < orders.size(); i++) {
            positionsByBank
                    .computeIfAbsent(orders.get(i).payerBank(), bank -> new ArrayList<>())
                    .add(i);
        }
        Answer[] answers = new Answer[orders.size()];
        positionsByBank.forEach((bank, positions) -> {
            List<Answer> bankAnswers = payBatchAs(
                    paymentApi.as(new Caller.Bank(bank)),
                    positions.stream().map(orders::get).toList());
            for (int i = 0; i < positions.size(); i++) {
                answers[positions.get(i)] = bankAnswers.get(i);
            }
        });
        return List.of(answers);
    }

    /** One POST /payments/batch of {@code orders}, sent by {@code sender}: one answer per order, in order. */
    public List<Answer> payBatchAs(Http sender, List<Order> orders) {
        Http.Response response = sender.post(
                "/payments/batch",
                Map.of("payments", orders.stream().map(Order::batchItem).toList()));
        assertThat(response.status()).as("batch: %s", response).isEqualTo(200);
        JsonNode results = response.json().path("results");
        assertThat(results.size()).isEqualTo(orders.size());
        List<Answer> answers = new ArrayList<>(orders.size());
        for (int i = 0; i < orders.size(); i++) {
            JsonNode result = results.get(i);
            assertThat(result.path("index").asInt()).isEqualTo(i);
            String status = result.path("status").asString();
            switch (status) {
                case "ACCEPTED", "REPLAYED" -> {
                    String paymentId = result.path("paymentId").asString();
                    record(orders.get(i), paymentId, status.equals("REPLAYED"));
                    answers.add(new Answer(202, paymentId, status.equals("REPLAYED"), null));
                }
                case "REJECTED" -> {
                    JsonNode problem = result.path("problem");
                    answers.add(new Answer(
                            problem.path("status").asInt(),
                            null,
                            false,
                            Http.slug(problem.path("type").asString())));
                }
                default -> throw new AssertionError("unknown batch item status " + status + " in " + result);
            }
        }
        return answers;
    }

    private synchronized void record(Order order, String paymentIdText, boolean replayed) {
        PaymentId id = PaymentId.parse(paymentIdText);
        acceptances.incrementAndGet();
        if (replayed) {
            replays.incrementAndGet();
        }
        // Keys are each bank's own (payment-api scopes them by participant), and an accepted order was sent by its
        // payer's bank: one key of one bank names one payment.
        PaymentId earlier = paymentIdByKey.putIfAbsent(order.payerBank() + "/" + order.key(), id);
        assertThat(earlier == null ? id : earlier)
                .as("one Idempotency-Key of one bank names one payment")
                .isEqualTo(id);
        Accepted payment = new Accepted(id, order.payer(), order.payee(), order.amountCentavos());
        Accepted known = accepted.putIfAbsent(id, payment);
        assertThat(known == null ? payment : known)
                .as("one payment id, one request")
                .isEqualTo(payment);
    }

    /** Every distinct payment accepted so far, in order of first acceptance. */
    public synchronized List<Accepted> accepted() {
        return List.copyOf(accepted.values());
    }

    public synchronized Accepted accepted(PaymentId id) {
        return accepted.get(id);
    }

    /** 202 answers, replays included. */
    public int acceptances() {
        return acceptances.get();
    }

    public int replays() {
        return replays.get();
    }
}
