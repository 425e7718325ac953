package io.pagora.reporting.reconciliation.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.kernel.Check.InvariantViolation;
import io.pagora.kernel.Id128;
import io.pagora.reporting.domain.PaymentStatus;
import io.pagora.reporting.domain.ProjectionDigest;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.PaymentRow;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.ProjectedPayment;
import io.pagora.reporting.reconciliation.application.ReconciliationReadModel.ProjectionPosition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How the walk in projection order adds up each transaction's rows, and when a transaction is complete. */
class ProjectionTallyTest {

    private static final Id128 PAYER = new Id128(7, 1);
    private static final Id128 PAYEE = new Id128(7, 2);

    @Test
    void aTransactionIsCompleteOnceTheWalkJudgedARowOfALaterOne() {
        List<ProjectionTally.Complete> complete = new ArrayList<>();
        ProjectionTally tally = ProjectionTally.startingAt(ProjectionPosition.before(10));

        tally = tally.add(List.of(row(10, 1, 100), row(10, 2, 200)), complete);
        assertThat(complete)
                .as("transaction 10 may have more rows on the next page")
                .isEmpty();
        tally = tally.add(List.of(row(10, 3, 300), row(12, 1, 50)), complete);

        assertThat(complete)
                .containsExactly(
                        new ProjectionTally.Complete(10, digest(row(10, 1, 100), row(10, 2, 200), row(10, 3, 300))));
        assertThat(tally.transactionId()).isEqualTo(12);
    }

    @Test
    void walkingToTheEndCompletesTheLastTransactionOnce() {
        List<ProjectionTally.Complete> complete = new ArrayList<>();
        ProjectionTally tally =
                ProjectionTally.startingAt(ProjectionPosition.before(10)).add(List.of(row(10, 1, 100)), complete);

        tally = tally.walkedToEnd(complete).walkedToEnd(complete);

        assertThat(complete).containsExactly(new ProjectionTally.Complete(10, digest(row(10, 1, 100))));
    }

    @Test
    void aTransactionTheWalkStartedInsideIsNeverCompared() {
        List<ProjectionTally.Complete> complete = new ArrayList<>();
        ProjectionTally tally = ProjectionTally.startingAt(new ProjectionPosition(10, new Id128(0, 5)));

        tally.add(List.of(row(10, 6, 100), row(11, 1, 100)), complete).walkedToEnd(complete);

        assertThat(complete).extracting(ProjectionTally.Complete::transactionId).containsExactly(11L);
    }

    @Test
    void theWalkNeverGoesBack() {
        ProjectionTally tally = ProjectionTally.startingAt(ProjectionPosition.before(10));

        assertThatThrownBy(() -> tally.add(List.of(row(9, 1, 100)), new ArrayList<>()))
                .isInstanceOf(InvariantViolation.class);
    }

    @Test
    void aDigestIsTheSameInAnyOrderAndChangesWithEveryField() {
        ProjectionDigest two =
                ProjectionDigest.NONE.plus(new Id128(1, 1), PAYER, PAYEE, 100).plus(new Id128(1, 2), PAYER, PAYEE, 200);
        ProjectionDigest reversed =
                ProjectionDigest.NONE.plus(new Id128(1, 2), PAYER, PAYEE, 200).plus(new Id128(1, 1), PAYER, PAYEE, 100);

        assertThat(reversed).isEqualTo(two);
        ProjectionDigest one = ProjectionDigest.NONE.plus(new Id128(1, 1), PAYER, PAYEE, 100);
        assertThat(List.of(
                        one.plus(new Id128(1, 3), PAYER, PAYEE, 200),
                        one.plus(new Id128(1, 2), PAYEE, PAYEE, 200),
                        one.plus(new Id128(1, 2), PAYER, PAYER, 200),
                        one.plus(new Id128(1, 2), PAYER, PAYEE, 201)))
                .allSatisfy(changed -> assertThat(changed).isNotEqualTo(two));
        // Same count and total, other rows: only the fingerprint tells them apart.
        ProjectionDigest swapped =
                ProjectionDigest.NONE.plus(new Id128(1, 1), PAYER, PAYEE, 200).plus(new Id128(1, 2), PAYER, PAYEE, 100);
        assertThat(swapped.payments()).isEqualTo(two.payments());
        assertThat(swapped.amountCentavos()).isEqualTo(two.amountCentavos());
        assertThat(swapped.fingerprint()).isNotEqualTo(two.fingerprint());
    }

    private static ProjectedPayment row(long transactionId, long id, long amountCentavos) {
        Id128 paymentId = new Id128(1, id);
        return new ProjectedPayment(
                new ProjectionPosition(transactionId, paymentId),
                new PaymentRow(paymentId, PAYER, PAYEE, amountCentavos, PaymentStatus.SETTLED),
                Instant.EPOCH,
                Instant.EPOCH);
    }

    private static ProjectionDigest digest(ProjectedPayment... rows) {
        ProjectionDigest digest = ProjectionDigest.NONE;
        for (ProjectedPayment row : rows) {
            digest = digest.plus(
                    row.row().paymentId(),
                    row.row().payer(),
                    row.row().payee(),
                    row.row().amountCentavos());
        }
        return digest;
    }
}
