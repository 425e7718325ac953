package io.pagora.service.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.service.metrics.LatencyHistograms;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The settings every service shares: one file, below a service's own values, checked at start. */
class ServiceDefaultsTest {

    private final ApplicationContextRunner context = new ApplicationContextRunner()
            .withUserConfiguration(ServiceDefaults.class)
            .withPropertyValues("spring.application.name=some-service");

    @Test
    void every_service_gets_the_shared_management_endpoints_and_servers() {
        context.run(started -> {
            assertThat(started.getEnvironment().getProperty("management.endpoints.web.exposure.include"))
                    .isEqualTo("health,prometheus,info");
            assertThat(started.getEnvironment().getProperty("management.metrics.tags.application"))
                    .isEqualTo("some-service");
            assertThat(started.getEnvironment().getProperty("spring.kafka.bootstrap-servers"))
                    .isEqualTo("127.0.0.1:9092");
            assertThat(started.getEnvironment().getProperty("server.shutdown")).isEqualTo("graceful");
            assertThat(started.getBean(TopicsProperties.class)).isEqualTo(new TopicsProperties(1, 1));
        });
    }

    @Test
    void a_services_own_value_wins_over_the_shared_one() {
        context.withPropertyValues(
                        "spring.lifecycle.timeout-per-shutdown-phase=30s",
                        "pagora.topics.replication-factor=3",
                        "pagora.topics.min-insync-replicas=2")
                .run(started -> {
                    assertThat(started.getEnvironment().getProperty("spring.lifecycle.timeout-per-shutdown-phase"))
                            .isEqualTo("30s");
                    assertThat(started.getBean(TopicsProperties.class)
                                    .durability()
                                    .minInsyncReplicas())
                            .isEqualTo(2);
                });
    }

    @Test
    void the_http_latency_buckets_are_every_pagora_timers_slo_boundaries() {
        context.run(started -> {
            String configured =
                    started.getEnvironment().getProperty("management.metrics.distribution.slo[http.server.requests]");
            assertThat(Arrays.stream(configured.split(","))
                            .map(DurationStyle.SIMPLE::parse)
                            .toList())
                    .as("pagora-service.properties against LatencyHistograms.SLOS")
                    .containsExactly(LatencyHistograms.SLOS);
        });
    }

    @Test
    void an_incoherent_topic_durability_refuses_the_start_naming_its_keys() {
        context.withPropertyValues("pagora.topics.replication-factor=3", "pagora.topics.min-insync-replicas=1")
                .run(started -> assertThat(started)
                        .hasFailed()
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("pagora.topics.replication-factor=3")
                        .hasMessageContaining("pagora.topics.min-insync-replicas=1"));
    }
}
