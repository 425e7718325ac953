package io.pagora.payments.api.adapter.web;

import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.payments.api.application.intake.Admission;
import io.pagora.payments.api.application.intake.GroupCommit;
import io.pagora.payments.api.application.intake.PaymentIntake;
import io.pagora.payments.api.application.intake.PaymentIntake.Order;
import io.pagora.payments.api.application.intake.PaymentIntake.Outcome;
import io.pagora.payments.api.application.limits.ParticipantLimits;
import io.pagora.payments.api.application.returns.Returns;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.settlement.domain.access.Caller;
import jakarta.servlet.http.HttpServletRequest;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import tools.jackson.databind.JsonNode;

/**
 * The command side: {@code POST /payments} (one payment, {@code Idempotency-Key} header) and
 * {@code POST /payments/batch} (up to {@code batch-items-max}, a key per item). A 202 means the broker
 * holds the payment durably; its outcome is read from the reporting-service (the Location header).
 * Each order carries its {@link Caller}: the intake decides whether the caller may pay from the payer account
 * (a foreign payer reads as an unknown one) and scopes the caller's Idempotency-Keys to it.
 */
@RestController
public class PaymentController {

    static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    static final String IDEMPOTENT_REPLAYED = "Idempotent-Replayed";

    /** The 202 body. */
    public record PaymentAccepted(String paymentId, String status, Instant acceptedAt, String endToEndId) {}

    /** A return's 202 body: the return is a payment of its own ({@code paymentId}), linked to its original. */
    public record ReturnAccepted(
            String paymentId, String status, Instant acceptedAt, String returnId, String originalPaymentId) {}

    private final GroupCommit intake;
    private final PaymentIntake batchIntake;
    private final Admission admission;
    private final ParticipantLimits limits;
    private final int bodyMaxBytes;
    private final int batchBodyMaxBytes;
    private final int batchItemsMax;
    private final String statusBaseUrl;
    private final AcceptMetrics acceptMetrics;
    private final Returns returns;
    private final ReturnMetrics returnMetrics;

    /**
     * @param intake accepts {@code POST /payments}, committing concurrent calls in groups
     * @param batchIntake accepts {@code POST /payments/batch}: the same service, wired to a publisher whose
     *     metrics say "batch" (the intake itself knows nothing of endpoints)
     */
    public PaymentController(
            GroupCommit intake,
            PaymentIntake batchIntake,
            Admission admission,
            ParticipantLimits limits,
            int bodyMaxBytes,
            int batchBodyMaxBytes,
            int batchItemsMax,
            URI statusBaseUrl,
            MeterRegistry meters,
            Returns returns) {
        this.intake = intake;
        this.batchIntake = batchIntake;
        this.admission = admission;
        this.limits = limits;
        this.bodyMaxBytes = bodyMaxBytes;
        this.batchBodyMaxBytes = batchBodyMaxBytes;
        this.batchItemsMax = batchItemsMax;
        String base = statusBaseUrl.toString();
        this.statusBaseUrl = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.acceptMetrics = new AcceptMetrics(meters);
        this.returns = returns;
        this.returnMetrics = new ReturnMetrics(meters);
    }

    /**
     * Before the body is read, the caller's own limits: a participant over them is answered 429 at once (nothing
     * queued, read, claimed or published) and takes nothing from the others.
     */
    @PostMapping("/payments")
    public ResponseEntity<Object> pay(Caller caller, HttpServletRequest http) {
        long started = System.nanoTime();
        return withinLimits(caller, http, started, () -> payOne(caller, http, started));
    }

    /** One order (a payment, a return) within the caller's in-flight slot and one token of its rate. */
    private ResponseEntity<Object> withinLimits(
            Caller caller,
            HttpServletRequest http,
            long started,
            java.util.function.Supplier<ResponseEntity<Object>> order) {
        Optional<Refusal> refused = limits.enter(caller);
        if (refused.isPresent()) {
            return overLimit(AcceptMetrics.Endpoint.SINGLE, refused.get(), http, started);
        }
        try {
            refused = limits.take(caller, 1);
            if (refused.isPresent()) {
                return overLimit(AcceptMetrics.Endpoint.SINGLE, refused.get(), http, started);
            }
            return order.get();
        } catch (RuntimeException e) {
            acceptMetrics.failed(AcceptMetrics.Endpoint.SINGLE, e, System.nanoTime() - started);
            throw e;
        } finally {
            limits.exit(caller);
        }
    }

    /** A request refused by its participant's limits, counted as one refused order. */
    private ResponseEntity<Object> overLimit(
            AcceptMetrics.Endpoint endpoint, Refusal refusal, HttpServletRequest http, long started) {
        acceptMetrics.overLimit(endpoint, refusal, System.nanoTime() - started);
        return Problems.response(refusal, http.getRequestURI());
    }

    private ResponseEntity<Object> payOne(Caller caller, HttpServletRequest http, long started) {
        JsonNode body = JsonBodies.read(http, bodyMaxBytes);
        IdempotencyKey.Result key = IdempotencyKey.parse(http.getHeader(IDEMPOTENCY_KEY), IDEMPOTENCY_KEY);
        if (key.problem() != null) {
            throw new RefusalException(key.problem());
        }
        Order order = PaymentJson.order(caller, key.key(), body);
        if (order.problem() != null) {
            throw new RefusalException(order.problem());
        }
        Outcome outcome = intake.accept(order);
        acceptMetrics.requested(outcome);
        acceptMetrics.record(AcceptMetrics.Endpoint.SINGLE, outcome, System.nanoTime() - started);
        return switch (outcome) {
            case Outcome.Accepted accepted ->
                ResponseEntity.status(HttpStatus.ACCEPTED)
                        .location(URI.create(statusBaseUrl + "/payments/" + accepted.paymentId()))
                        .header(IDEMPOTENT_REPLAYED, Boolean.toString(accepted.replayed()))
                        .body(new PaymentAccepted(
                                accepted.paymentId().toString(),
                                "ACCEPTED",
                                accepted.acceptedAt(),
                                accepted.endToEndId()));
            case Outcome.Rejected rejected -> Problems.response(rejected.problem(), http.getRequestURI());
            case Outcome.Unknown unknown -> {
                AnswerTimingFilter.outcomeUnknown(http);
                yield Problems.response(unknown.problem(), http.getRequestURI());
            }
        };
    }

    /**
     * A return (devolução) of a settled payment by its payee's bank: {@link Returns} checks it against the original
     * in the ledger, then accepts it as a payment back to the original payer, through the same group commit as
     * single payments. Limited as a single payment is.
     */
    @PostMapping("/payments/{paymentId}/returns")
    public ResponseEntity<Object> returnPayment(
            Caller caller, @PathVariable("paymentId") String paymentId, HttpServletRequest http) {
        long started = System.nanoTime();
        return withinLimits(caller, http, started, () -> returnOne(caller, paymentId, http));
    }

    private ResponseEntity<Object> returnOne(Caller caller, String paymentId, HttpServletRequest http) {
        JsonNode body = JsonBodies.read(http, bodyMaxBytes);
        IdempotencyKey.Result key = IdempotencyKey.parse(http.getHeader(IDEMPOTENCY_KEY), IDEMPOTENCY_KEY);
        if (key.problem() != null) {
            throw new RefusalException(key.problem());
        }
        Returns.ReturnOrder order = ReturnJson.parse(paymentId, body);
        Outcome outcome = returns.request(caller, key.key(), order);
        returnMetrics.record(order.reason(), outcome);
        return switch (outcome) {
            case Outcome.Accepted accepted ->
                ResponseEntity.status(HttpStatus.ACCEPTED)
                        .location(URI.create(statusBaseUrl + "/payments/" + accepted.paymentId()))
                        .header(IDEMPOTENT_REPLAYED, Boolean.toString(accepted.replayed()))
                        .body(new ReturnAccepted(
                                accepted.paymentId().toString(),
                                "ACCEPTED",
                                accepted.acceptedAt(),
                                accepted.endToEndId(),
                                order.original().toString()));
            case Outcome.Rejected rejected -> Problems.response(rejected.problem(), http.getRequestURI());
            case Outcome.Unknown unknown -> Problems.response(unknown.problem(), http.getRequestURI());
        };
    }

    /**
     * The caller's in-flight slot is taken before the shared batch slots, so one participant's batches cannot take
     * them all; its tokens (one per item) once the body says how many items it holds, before any I/O.
     */
    @PostMapping("/payments/batch")
    public ResponseEntity<Object> payBatch(Caller caller, HttpServletRequest http) {
        long started = System.nanoTime();
        // Before the body is read: a refused batch costs nothing but this answer, a 429 for the whole batch.
        Optional<Refusal> overloaded = admission.refusal();
        if (overloaded.isPresent()) {
            return Problems.response(overloaded.get(), http.getRequestURI());
        }
        Optional<Refusal> refused = limits.enter(caller);
        if (refused.isPresent()) {
            return overLimit(AcceptMetrics.Endpoint.BATCH, refused.get(), http, started);
        }
        try {
            return payBatchEntered(caller, http, started);
        } finally {
            limits.exit(caller);
        }
    }

    private ResponseEntity<Object> payBatchEntered(Caller caller, HttpServletRequest http, long started) {
        Optional<Refusal> busy = admission.enterBatch();
        if (busy.isPresent()) {
            return Problems.response(busy.get(), http.getRequestURI());
        }
        try {
            return payMany(caller, http, started);
        } catch (RuntimeException e) {
            acceptMetrics.failed(AcceptMetrics.Endpoint.BATCH, e, System.nanoTime() - started);
            throw e;
        } finally {
            admission.batchDone();
        }
    }

    private ResponseEntity<Object> payMany(Caller caller, HttpServletRequest http, long started) {
        List<Order> orders = orders(caller, JsonBodies.read(http, batchBodyMaxBytes));
        Optional<Refusal> refused = limits.take(caller, orders.size());
        if (refused.isPresent()) {
            return overLimit(AcceptMetrics.Endpoint.BATCH, refused.get(), http, started);
        }
        List<Outcome> outcomes = batchIntake.acceptAll(orders);
        long elapsedNanos = System.nanoTime() - started;
        BatchResult.Tally tally = new BatchResult.Tally(outcomes.size());
        for (Outcome outcome : outcomes) {
            acceptMetrics.requested(outcome);
            acceptMetrics.record(AcceptMetrics.Endpoint.BATCH, outcome, elapsedNanos);
            tally.add(outcome);
        }
        Refusal wholeBatch = tally.wholeBatchProblem();
        if (wholeBatch != null) {
            if (wholeBatch.type() == RefusalReason.OUTCOME_UNKNOWN) {
                AnswerTimingFilter.outcomeUnknown(http);
            }
            return Problems.response(wholeBatch, http.getRequestURI());
        }
        return ResponseEntity.ok(tally.result());
    }

    /** The batch body's items, each parsed or with the problem that made parsing fail. */
    private List<Order> orders(Caller caller, JsonNode body) {
        JsonFields fields = new JsonFields(body);
        JsonNode items = fields.node("payments");
        if (items == null) {
            throw fields.missing("payments");
        }
        if (!items.isArray()) {
            throw fields.invalid(
                    RefusalReason.INVALID_FIELD, "payments", "must be an array, got " + JsonFields.typeOf(items));
        }
        if (items.isEmpty() || items.size() > batchItemsMax) {
            throw new io.pagora.service.web.ProblemException(
                    HttpProblems.INVALID_BATCH_SIZE,
                    "payments",
                    "payments must hold 1 to " + batchItemsMax + " items, got " + items.size());
        }
        List<Order> orders = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            orders.add(order(caller, items.get(i), i));
        }
        return orders;
    }

    private static Order order(Caller caller, JsonNode item, int index) {
        if (!item.isObject()) {
            return Order.malformed(
                    caller,
                    Refusal.of(
                            RefusalReason.INVALID_FIELD,
                            "payments[" + index + "] must be a JSON object, got " + JsonFields.typeOf(item)));
        }
        JsonNode keyNode = item.get("idempotencyKey");
        String field = "idempotencyKey";
        if (keyNode != null && !keyNode.isNull() && !keyNode.isString()) {
            return Order.malformed(
                    caller,
                    Refusal.ofField(
                            RefusalReason.INVALID_IDEMPOTENCY_KEY,
                            field,
                            field + " must be a string, got " + JsonFields.typeOf(keyNode)));
        }
        IdempotencyKey.Result key =
                IdempotencyKey.parse(keyNode == null || keyNode.isNull() ? null : keyNode.stringValue(), field);
        if (key.problem() != null) {
            return Order.malformed(caller, key.problem());
        }
        return PaymentJson.order(caller, key.key(), item);
    }
}
