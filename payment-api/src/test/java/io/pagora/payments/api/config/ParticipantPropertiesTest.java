package io.pagora.payments.api.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** The participants' settings as Spring binds them at startup: the lease of pulled messages against the answer window. */
class ParticipantPropertiesTest {

    /** clearing-service's default {@code pagora.clearing.pending-timeout}: the time a bank has to answer. */
    static final Duration CLEARING_PENDING_TIMEOUT = Duration.ofSeconds(30);

    static ParticipantProperties bind(Map<String, String> values) {
        return new Binder(new MapConfigurationPropertySource(values))
                .bindOrCreate("pagora.participants", ParticipantProperties.class);
    }

    @Test
    void theDefaultLeaseLapsesWellInsideTheTimeABankHasToAnswer() {
        ParticipantProperties defaults = bind(Map.of());
        assertThat(defaults.answerWindow())
                .as("clearing's default pending timeout")
                .isEqualTo(CLEARING_PENDING_TIMEOUT);
        assertThat(defaults.leaseTimeout().multipliedBy(2))
                .as("a redelivered instruction must arrive with time left to answer it")
                .isLessThanOrEqualTo(CLEARING_PENDING_TIMEOUT);
    }

    @Test
    void aLeaseNotWellInsideTheAnswerWindowIsRefusedAtStartup() {
        assertThatThrownBy(() -> bind(
                        Map.of("pagora.participants.lease-timeout", "3s", "pagora.participants.answer-window", "5s")))
                .rootCause()
                .hasMessageContaining("pagora.participants.lease-timeout (PT3S) is at most half");
        assertThat(bind(Map.of(
                                "pagora.participants.lease-timeout",
                                "1666ms",
                                "pagora.participants.answer-window",
                                "5s"))
                        .leaseTimeout())
                .as("the local platform's: a third of its 5 s")
                .isEqualTo(Duration.ofMillis(1666));
    }
}
