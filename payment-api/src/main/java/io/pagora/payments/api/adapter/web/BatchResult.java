package io.pagora.payments.api.adapter.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.pagora.payments.api.application.intake.PaymentIntake.Outcome;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The 200 body of {@code POST /payments/batch} (the OpenAPI document's {@code BatchResult}): the counts,
 * then one result per item in request order. Members are written in the order declared here.
 */
@JsonPropertyOrder({"acceptedCount", "replayedCount", "rejectedCount", "unknownCount", "results"})
public record BatchResult(
        int acceptedCount, int replayedCount, int rejectedCount, int unknownCount, List<Item> results) {

    /**
     * One item's answer. {@code paymentId}, {@code acceptedAt} and {@code endToEndId} only when ACCEPTED or REPLAYED,
     * {@code problem} (the members of a problem+json document) only when REJECTED or UNKNOWN.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @JsonPropertyOrder({"index", "status", "paymentId", "acceptedAt", "endToEndId", "problem"})
    public record Item(
            int index,
            String status,
            String paymentId,
            Instant acceptedAt,
            String endToEndId,
            Map<String, Object> problem) {}

    /**
     * Gathers one batch's outcomes, in order, into its answer: a {@link BatchResult}, or, when nothing
     * went through because the broker failed, the one problem that answers the whole batch.
     */
    static final class Tally {

        private final List<Item> results;
        private int accepted;
        private int replayed;
        private int unknown;
        private int brokerFailures;
        private int overloaded;
        private Refusal overloadedProblem;
        private Refusal brokerProblem;
        private Refusal unknownProblem;

        Tally(int itemCount) {
            this.results = new ArrayList<>(itemCount);
        }

        /** Adds the outcome of the next item, whose index is {@code results.size()}. */
        void add(Outcome outcome) {
            int i = results.size();
            results.add(
                    switch (outcome) {
                        case Outcome.Accepted ok -> accepted(i, ok);
                        case Outcome.Rejected refused -> rejected(i, refused.problem());
                        // Never REJECTED: the payment may be accepted, and a client that took it for refused
                        // and paid again under a new key would pay twice.
                        case Outcome.Unknown notConfirmed -> unknown(i, notConfirmed.problem());
                    });
        }

        /**
         * Nothing went through: the batch as a whole is a transient failure, to be retried as is — and if
         * any payment may have been accepted, the batch's outcome is unknown, not refused. A batch admission
         * control refused as a whole (no key looked at) is answered 429, not item by item: REJECTED is final,
         * and a replayed item's key may name a payment that settles.
         */
        Refusal wholeBatchProblem() {
            if (overloaded > 0 && overloaded == results.size()) {
                return overloadedProblem;
            }
            if (brokerFailures == 0 || accepted + replayed > 0) {
                return null;
            }
            return unknownProblem != null ? unknownProblem : brokerProblem;
        }

        BatchResult result() {
            return new BatchResult(
                    accepted, replayed, results.size() - accepted - replayed - unknown, unknown, results);
        }

        private Item accepted(int i, Outcome.Accepted ok) {
            if (ok.replayed()) {
                replayed++;
            } else {
                accepted++;
            }
            return new Item(
                    i,
                    ok.replayed() ? "REPLAYED" : "ACCEPTED",
                    ok.paymentId().toString(),
                    ok.acceptedAt(),
                    ok.endToEndId(),
                    null);
        }

        private Item rejected(int i, Refusal problem) {
            if (problem.type() == RefusalReason.BROKER_UNAVAILABLE) {
                brokerFailures++;
                brokerProblem = problem;
            }
            if (problem.type() == RefusalReason.OVERLOADED) {
                overloaded++;
                overloadedProblem = problem;
            }
            // Fields are named within the item; the batch names them within the body.
            return new Item(
                    i,
                    "REJECTED",
                    null,
                    null,
                    null,
                    Problems.embedded(
                            problem.field() == null
                                    ? problem
                                    : problem.withField("payments[" + i + "]." + problem.field())));
        }

        private Item unknown(int i, Refusal problem) {
            unknown++;
            brokerFailures++;
            unknownProblem = problem;
            return new Item(i, "UNKNOWN", null, null, null, Problems.embedded(problem));
        }
    }
}
