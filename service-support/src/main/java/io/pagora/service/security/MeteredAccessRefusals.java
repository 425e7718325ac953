package io.pagora.service.security;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.settlement.application.AccessRefusals;
import io.pagora.settlement.domain.access.AccessRefusal;
import io.pagora.settlement.domain.access.Caller;
import java.util.EnumMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Refused requests as {@code pagora.access.refusals{reason}}. Logged at DEBUG only, one line and no stack
 * trace: a prober must not be able to fill the logs, and the count is what an operator alerts on.
 */
public final class MeteredAccessRefusals implements AccessRefusals {

    static final String METER = "pagora.access.refusals";
    private static final Logger log = LoggerFactory.getLogger(MeteredAccessRefusals.class);

    private final Map<AccessRefusal, Counter> counters = new EnumMap<>(AccessRefusal.class);

    public MeteredAccessRefusals(MeterRegistry meters) {
        for (AccessRefusal reason : AccessRefusal.values()) {
            counters.put(
                    reason,
                    Counter.builder(METER)
                            .tag("reason", reason.slug)
                            .description("requests refused for who sent them, by reason")
                            .register(meters));
        }
    }

    @Override
    public void refused(Caller caller, AccessRefusal reason) {
        counters.get(reason).increment();
        log.debug("refused {}: {}", caller == null ? "anonymous" : caller.principalName(), reason.slug);
    }
}
