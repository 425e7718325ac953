package io.pagora.e2e.support;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The PromQL name extraction the dashboard test relies on, on the shapes the dashboards use. */
class PromQlTest {

    @Test
    void findsTheSelectedMetricsAndNothingElse() {
        assertThat(
                        PromQl.metricNames(
                                "histogram_quantile(0.99, sum by (le, operation) "
                                        + "(rate(pagora_ledger_request_seconds_bucket{application=~\"$application\", le!=\"+Inf\"}[$__rate_interval])))"))
                .containsExactly("pagora_ledger_request_seconds_bucket");
        assertThat(PromQl.metricNames("sum(rate(a_total[5m])) by (status) / on (status) group_left "
                        + "clamp_min(sum(rate(b_seconds_count[1m] offset 5m)) by (status), 1e-9) > bool 0"))
                .containsExactly("a_total", "b_seconds_count");
        assertThat(PromQl.metricNames(
                        "max without (partition) (kafka_consumer_fetch_manager_records_lag_max) or vector(0)"))
                .containsExactly("kafka_consumer_fetch_manager_records_lag_max");
        assertThat(PromQl.metricNames(
                        "label_replace(up{job=\"x\"}, \"service\", \"$1\", \"job\", \"(.*)\") unless absent(foo)"))
                .containsExactly("up", "foo");
        assertThat(PromQl.metricNames(
                        "sum(jvm_memory_used_bytes{area=\"heap\"}) / sum(jvm_memory_max_bytes{area='heap'}) * 100"))
                .containsExactly("jvm_memory_used_bytes", "jvm_memory_max_bytes");
        assertThat(PromQl.variableQueryMetricNames("label_values(jvm_info{job!=\"\"}, application)"))
                .containsExactly("jvm_info");
    }

    @Test
    void anExpositionProvidesHistogramSeriesOnlyForHistograms() {
        PromQl.Exposition scrape = PromQl.Exposition.parse("""
                # HELP t_seconds a timer
                # TYPE t_seconds histogram
                t_seconds_bucket{le="0.1"} 1
                t_seconds_count 1
                t_seconds_sum 0.05
                # TYPE s_seconds summary
                s_seconds_count 2
                s_seconds_sum 0.1
                # TYPE c_total counter
                c_total{a="b"} 3.0
                # TYPE odd_count gauge
                odd_count 4
                """);
        assertThat(scrape.provides("t_seconds_bucket")).isTrue();
        assertThat(scrape.provides("t_seconds_count")).isTrue();
        assertThat(scrape.provides("s_seconds_count")).isTrue();
        assertThat(scrape.provides("s_seconds_bucket")).isFalse();
        assertThat(scrape.provides("c_total")).isTrue();
        assertThat(scrape.provides("odd_count")).as("a gauge named *_count").isTrue();
        assertThat(scrape.provides("c")).isFalse();
    }
}
