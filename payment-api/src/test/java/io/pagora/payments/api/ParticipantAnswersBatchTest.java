package io.pagora.payments.api;

import static io.pagora.payments.api.PaymentValidationTest.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.testing.Http;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /participants/{ispb}/answers} refuses a batch of the wrong size as docs/participants.md says:
 * {@code 400 invalid-batch-size}, for none, for more than 1,000 and for answers that are not an array.
 */
class ParticipantAnswersBatchTest extends PaymentApiIntegrationTest {

    static final int BANK = 41;

    @Test
    void aBatchOfTheWrongSizeIsRefusedWith400InvalidBatchSize() {
        Http bank = new Participants(port).bank(BANK);
        String path = "/participants/%08d/answers".formatted(BANK);
        assertProblem(bank.post(path, Map.of("answers", List.of())), 400, "invalid-batch-size");
        List<Map<String, String>> tooMany = new ArrayList<>();
        for (int i = 0; i < 1001; i++) {
            tooMany.add(Map.of("paymentId", "%032x".formatted(i), "decision", "ACCEPT"));
        }
        assertProblem(bank.post(path, Map.of("answers", tooMany)), 400, "invalid-batch-size");
        Http.Response notAnArray = bank.post(path, Map.of("answers", "all of them"));
        assertProblem(notAnArray, 400, "invalid-batch-size");
        assertThat(notAnArray.json().path("field").asString()).isEqualTo("answers");
    }
}
