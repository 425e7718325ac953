package io.pagora.local.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The load's reading of {@code POST /directory/lookups/batch} answers, on bodies shaped as docs/api.md shows them. */
class LookupAnswersTest {

    private static final String ANSWER = """
            {"foundCount":2,"refusedCount":2,"results":[\
            {"index":0,"status":"FOUND","lookup":{"key":"a@pagora.example","keyType":"EMAIL",\
            "accountId":"0000000000000051000000000000000a","ispb":"00000081","holderName":"Ana P. R.",\
            "holderTaxId":"***.813.570-**","keyCreatedAt":"2026-11-29T19:00:00Z",\
            "endToEndId":"E00000081202611291900aaaaaaaaaaa","lookedUpAt":"2026-11-29T19:01:00Z"}},\
            {"index":1,"status":"REFUSED","problem":{"type":"https://pagora.io/problems/key-not-found",\
            "title":"Key not found","status":404,"detail":"no key b@pagora.example is registered"}},\
            {"index":2,"status":"REFUSED","problem":{"type":"https://pagora.io/problems/look-up-rate-limited",\
            "title":"Look-up rate limited","status":429,"detail":"empty","retryAfterSeconds":30}},\
            {"index":3,"status":"FOUND","lookup":{"key":"c@pagora.example","endToEndId":"E2"}}]}""";

    @Test
    void each_result_in_order_its_end_to_end_id_when_found() {
        assertThat(LoadGenerator.foundIds(ANSWER, 4))
                .containsExactly("E00000081202611291900aaaaaaaaaaa", null, null, "E2");
    }

    @Test
    void a_body_with_fewer_results_than_asked_is_unreadable() {
        assertThat(LoadGenerator.foundIds(ANSWER, 5)).isNull();
        assertThat(LoadGenerator.foundIds("{}", 1)).isNull();
    }

    @Test
    void refused_look_ups_are_counted_by_their_problem() {
        LookupLoad.Counted counted = LookupLoad.counted(ANSWER, 4);

        assertThat(counted.found()).isEqualTo(2);
        assertThat(counted.refused()).isEqualTo(Map.of("key-not-found", 1L, "look-up-rate-limited", 1L));
        assertThat(counted.unanswered()).isZero();
        assertThat(LookupLoad.counted(ANSWER, 6).unanswered())
                .as("results missing from the body")
                .isEqualTo(2);
    }
}
