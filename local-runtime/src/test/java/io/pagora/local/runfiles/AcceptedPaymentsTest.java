package io.pagora.local.runfiles;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one reading of the load generator's answers, shared by the demo report, verify, await-final and chaos-check. */
class AcceptedPaymentsTest {

    private static final String ID_1 = "0190c1d2e3f4000100000000000000aa";
    private static final String ID_2 = "0190c1d2e3f4000100000000000000bb";

    @TempDir
    Path dir;

    @Test
    void theRunsOfOneDemoReadAsOneAndALineStillBeingWrittenIsLeftOut() throws Exception {
        Path warmup = dir.resolve("k6-warmup.log");
        Path measured = dir.resolve("k6-measured.log");
        Files.writeString(warmup, "ACCEPTED\tk1\t" + ID_1 + "\t202\tfirst\nsome k6 noise\nREFUSED\tk2\t422\t\n");
        // k6 is still writing the measured run: its last line is cut in the middle of an ACCEPTED answer.
        Files.writeString(
                measured,
                "UNANSWERED\tk3\t0\nCONFLICT\tk4\t409\nACCEPTED\tk5\t" + ID_2 + "\t202\tfirst\nACCEPTED\tk6\t01");

        AcceptedPayments answers = AcceptedPayments.read(List.of(warmup, measured));

        assertThat(answers.accepted())
                .extracting(AcceptedPayments.Acceptance::idempotencyKey)
                .containsExactly("k1", "k5");
        assertThat(answers.refused()).isEqualTo(1);
        assertThat(answers.unanswered()).isEqualTo(1);
        assertThat(answers.conflictsRefused()).isEqualTo(1);
        assertThat(answers.summary())
                .isEqualTo("load generator answers: 2 accepted (202; 0 of them to deliberate "
                        + "duplicate re-sends), 1 refused unexpectedly (4xx), 1 unanswered/5xx, 1 deliberate key re-uses "
                        + "with another amount refused");
    }

    @Test
    void aFileNotWrittenYetHoldsNoAnswerAndTheOptionNamesEveryFile() throws Exception {
        Path written = dir.resolve("a.log");
        Files.writeString(written, "ACCEPTED\tk1\t" + ID_1 + "\t202\tdup\n");

        AcceptedPayments answers = AcceptedPayments.read(AcceptedPayments.files(written + "," + dir.resolve("b.log")));

        assertThat(answers.accepted())
                .singleElement()
                .satisfies(a -> assertThat(a.duplicate()).isTrue());
    }
}
