package io.pagora.local.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bench's gate over its read-side probe: a query not answered, or a kind never measured, is a failed window. */
class QueryProbeTest {

    private static final QueryProbe.Figures MEASURED = new QueryProbe.Figures(new double[] {5.0, 7.0, 31.4}, 0);

    @Test
    void aWindowWhoseQueriesWereAllAnsweredPassesTheGate() {
        assertThat(QueryProbe.gateFailures(
                        Map.of(QueryProbe.Kind.PAYMENT, MEASURED, QueryProbe.Kind.STATEMENT, MEASURED)))
                .isEmpty();
        assertThat(MEASURED.json())
                .containsEntry("n", 3)
                .containsEntry("failed", 0)
                .containsEntry("p99_ms", 31.4)
                .containsEntry("max_ms", 31.4);
        assertThat(MEASURED.line()).startsWith("n=3  p50 7.0 ms  p99 31.4 ms  max 31.4 ms, 0 not 200");
    }

    @Test
    void aQueryAnsweredWithAnythingButTwoHundredFailsTheWindow() {
        QueryProbe.Figures oneRefused = new QueryProbe.Figures(new double[] {5.0}, 1);

        assertThat(QueryProbe.gateFailures(
                        Map.of(QueryProbe.Kind.PAYMENT, MEASURED, QueryProbe.Kind.STATEMENT, oneRefused)))
                .containsExactly("1 statement queries under load were not answered 200");
    }

    @Test
    void aProbeThatMeasuredNothingIsNoEvidenceAndFailsTheWindow() {
        QueryProbe.Figures none = new QueryProbe.Figures(new double[0], 0);

        assertThat(QueryProbe.gateFailures(Map.of(QueryProbe.Kind.PAYMENT, none, QueryProbe.Kind.STATEMENT, MEASURED)))
                .containsExactly("the query probe measured no payment query");
        assertThat(none.json()).doesNotContainKey("p99_ms");
        assertThat(none.line()).startsWith("n=0");
    }
}
