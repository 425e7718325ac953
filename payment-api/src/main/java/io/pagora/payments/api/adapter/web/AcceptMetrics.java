package io.pagora.payments.api.adapter.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pagora.kernel.Check;
import io.pagora.ledger.port.LedgerUnavailableException;
import io.pagora.payments.api.application.intake.PaymentIntake.Outcome;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.service.metrics.LatencyHistograms;
import io.pagora.service.web.EdgeProblems;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.dao.DataAccessException;

/**
 * The intake's meters, per payment order:
 * <ul>
 *   <li>{@value #ACCEPT} (timer; {@code endpoint=single|batch}, {@code result=accepted|replayed|rejected}): how
 *       long the client waited for the answer — for a batch, the whole call, once per item;
 *   <li>{@value #ACCEPTED} (counter; {@code endpoint}): payments newly accepted (a replay is not a new payment);
 *   <li>{@value #REJECTIONS} (counter; {@code reason} = the problem type's slug, e.g. {@code unknown-account});
 *   <li>{@value #REQUESTS} (counter; {@code outcome} = accepted, replayed or the problem type's slug): per request.
 * </ul>
 * Every tag comes from a closed set (two endpoints, three results, the slugs of the {@link RefusalReason}s and
 * {@link HttpProblems}).
 */
final class AcceptMetrics {

    static final String ACCEPT = "pagora.payments.accept";
    static final String ACCEPTED = "pagora.payments.accepted";
    static final String REJECTIONS = "pagora.payments.rejections";
    static final String REQUESTS = "pagora.payments.requests";

    enum Endpoint {
        SINGLE("single"),
        BATCH("batch");

        final String tag;

        Endpoint(String tag) {
            this.tag = tag;
        }
    }

    private enum Result {
        ACCEPTED,
        REPLAYED,
        REJECTED
    }

    private final MeterRegistry registry;
    private final Map<Endpoint, Map<Result, Timer>> timers = new EnumMap<>(Endpoint.class);
    private final Map<Endpoint, Counter> accepted = new EnumMap<>(Endpoint.class);
    /** By problem type slug: the domain's and the HTTP layer's, all registered up front. */
    private final Map<String, Counter> rejections = new HashMap<>();

    AcceptMetrics(MeterRegistry registry) {
        this.registry = registry;
        // Registered up front: the dashboards show zero, not "no data", before the first payment.
        for (Endpoint endpoint : Endpoint.values()) {
            Map<Result, Timer> byResult = new EnumMap<>(Result.class);
            for (Result result : Result.values()) {
                byResult.put(
                        result,
                        LatencyHistograms.timer(ACCEPT, "Time to answer one payment order (for a batch: the call)")
                                .tag("endpoint", endpoint.tag)
                                .tag("result", result.name().toLowerCase(Locale.ROOT))
                                .register(registry));
            }
            timers.put(endpoint, byResult);
            accepted.put(
                    endpoint,
                    Counter.builder(ACCEPTED)
                            .description("Payments newly accepted (the broker holds them); replays are not counted")
                            .tag("endpoint", endpoint.tag)
                            .register(registry));
        }
        List<String> slugs = new ArrayList<>();
        for (RefusalReason type : RefusalReason.values()) {
            slugs.add(type.slug);
        }
        for (io.pagora.service.web.ProblemType type : HttpProblems.ALL) {
            slugs.add(type.slug());
        }
        for (String slug : slugs) {
            rejections.put(
                    slug,
                    Counter.builder(REJECTIONS)
                            .description("Payment orders refused, by problem type")
                            .tag("reason", slug)
                            .register(registry));
        }
    }

    /** One request answered with {@code outcome}: {@value #REQUESTS}, by outcome. */
    void requested(Outcome outcome) {
        String result = switch (outcome) {
            case Outcome.Accepted accepted -> accepted.replayed() ? "replayed" : "accepted";
            case Outcome.Rejected rejected -> rejected.problem().type().slug;
            case Outcome.Unknown unknown -> unknown.problem().type().slug;
        };
        registry.counter(REQUESTS, "outcome", result).increment();
    }

    /** A request refused by its participant's limits: counted as one request and one refused order. */
    void overLimit(Endpoint endpoint, Refusal refusal, long elapsedNanos) {
        Outcome refused = new Outcome.Rejected(refusal);
        requested(refused);
        record(endpoint, refused, elapsedNanos);
    }

    /** One payment order answered with {@code outcome}, {@code elapsedNanos} after its request arrived. */
    void record(Endpoint endpoint, Outcome outcome, long elapsedNanos) {
        switch (outcome) {
            case Outcome.Accepted ok -> {
                timers.get(endpoint)
                        .get(ok.replayed() ? Result.REPLAYED : Result.ACCEPTED)
                        .record(elapsedNanos, TimeUnit.NANOSECONDS);
                if (!ok.replayed()) {
                    accepted.get(endpoint).increment();
                }
            }
            case Outcome.Rejected refused ->
                rejected(endpoint, refused.problem().type().slug, elapsedNanos);
            case Outcome.Unknown unknown -> rejected(endpoint, unknown.problem().type().slug, elapsedNanos);
        }
    }

    /** A request that failed as a whole (bad body, outage): one rejected order, for the reason the client is told. */
    void failed(Endpoint endpoint, RuntimeException failure, long elapsedNanos) {
        rejected(endpoint, slugOf(failure), elapsedNanos);
    }

    private void rejected(Endpoint endpoint, String slug, long elapsedNanos) {
        timers.get(endpoint).get(Result.REJECTED).record(elapsedNanos, TimeUnit.NANOSECONDS);
        Counter counter = rejections.get(slug);
        Check.that(counter != null, "every problem type's counter is registered up front: %s", slug);
        counter.increment();
    }

    /** The slug of the problem type {@link ApiExceptionHandler} answers for this failure. */
    static String slugOf(RuntimeException failure) {
        return switch (failure) {
            case RefusalException problem -> problem.problem().type().slug;
            case io.pagora.service.web.ProblemException problem ->
                problem.type().slug();
            case LedgerUnavailableException ignored -> HttpProblems.LEDGER_UNAVAILABLE.slug();
            case DataAccessException ignored -> HttpProblems.DATABASE_UNAVAILABLE.slug();
            default -> EdgeProblems.INTERNAL_ERROR.slug();
        };
    }
}
