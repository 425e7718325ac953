package io.pagora.payments.api.adapter.web;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.events.ReturnReason;
import io.pagora.payments.api.application.intake.PaymentIntake.Outcome;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@value #REQUESTED} (counter; {@code reason} = a {@link ReturnReason} code, {@code outcome} = accepted, replayed,
 * unknown or the refusal's problem type slug): each return request a bank made, as answered. How returns end (settled,
 * refused by the original payer's bank, expired) is counted where outcomes are projected (reporting-service). Every
 * tag comes from a closed set: four reasons, the problem slugs.
 */
final class ReturnMetrics {

    static final String REQUESTED = "pagora.returns.requested";

    private final MeterRegistry registry;
    private final Map<ReturnReason, Map<String, Counter>> counters = new EnumMap<>(ReturnReason.class);

    ReturnMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (ReturnReason reason : ReturnReason.values()) {
            Map<String, Counter> byOutcome = new ConcurrentHashMap<>();
            for (String outcome : new String[] {"accepted", "replayed", "unknown"}) {
                byOutcome.put(outcome, counter(reason, outcome));
            }
            counters.put(reason, byOutcome);
        }
    }

    void record(ReturnReason reason, Outcome outcome) {
        String tag = switch (outcome) {
            case Outcome.Accepted accepted -> accepted.replayed() ? "replayed" : "accepted";
            case Outcome.Rejected rejected -> rejected.problem().type().slug;
            case Outcome.Unknown ignored -> "unknown";
        };
        // Refusal slugs are a closed set too (RefusalReason): registered on first use.
        counters.get(reason).computeIfAbsent(tag, slug -> counter(reason, slug)).increment();
    }

    private Counter counter(ReturnReason reason, String outcome) {
        return Counter.builder(REQUESTED)
                .description("Return requests by PIX reason and answer")
                .tag("reason", reason.name())
                .tag("outcome", outcome)
                .register(registry);
    }
}
