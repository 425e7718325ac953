package io.pagora.payments.api.application.returns;

import io.pagora.events.ReturnReason;
import io.pagora.kernel.Check;
import io.pagora.payments.api.application.intake.IdempotencyKeys;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Found;
import io.pagora.payments.api.application.intake.IdempotencyKeys.Scoped;
import io.pagora.payments.api.application.intake.IdempotencyKeys.ScopedId;
import io.pagora.payments.api.application.intake.PaymentIntake.Outcome;
import io.pagora.payments.api.domain.IdempotencyKey;
import io.pagora.payments.api.domain.OriginalPayment;
import io.pagora.payments.api.domain.PaymentRequest;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.ReturnRules;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.PixId;
import io.pagora.settlement.domain.access.Caller;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Turns a payee's bank's request to return a payment (a devolução) into the payment order that settles it: from the
 * original's payee back to its payer, for all or part of its amount, carrying what it returns. The order then goes
 * through the intake like any payment (keys, return id, publication), and through clearing: its chain debits the
 * original's returnable account, so the ledger holds the line on the total returned.
 *
 * <p>Before that, the original is read from the ledger (one lookup of its legs, then, for a caller that may see it,
 * one of its returnable account: to anyone else it is unknown, at an unknown id's cost) and the return refused at
 * once, moving nothing, when it cannot be right: an unknown payment, another bank's, a return,
 * not settled, past the window, or for more than is left. The last two change with time and with other returns, so
 * a request whose key or return id already names this very return (a retry of one accepted earlier) is not refused
 * for them: it is a replay, answered as the first time.
 */
public final class Returns {

    /** A return as its bank asks for it, well-formed. */
    public record ReturnOrder(
            PaymentId original, long amountCentavos, ReturnReason reason, String returnId, String description) {
        public ReturnOrder {
            Check.that(original != null && reason != null, "a return names its original and its reason");
            Check.that(
                    returnId == null
                            || PixId.problem(returnId, PixId.Kind.RETURN).isEmpty(),
                    "a return id: %s",
                    returnId);
        }
    }

    /**
     * Where a return that passed its checks is paid: the single-payment intake (keys, return id, publication),
     * committed in groups with the payments.
     */
    @FunctionalInterface
    public interface Intake {
        Outcome accept(Caller caller, IdempotencyKey key, PaymentRequest request);
    }

    /** What to do with a return: refuse it, or pay it as {@code request}. */
    public sealed interface Prepared {
        record Refused(Refusal problem) implements Prepared {}

        record Ready(PaymentRequest request) implements Prepared {}
    }

    private final OriginalPayments originals;
    private final ReturnRules rules;
    private final IdempotencyKeys keys;
    private final Intake intake;
    private final Clock clock;

    public Returns(OriginalPayments originals, ReturnRules rules, IdempotencyKeys keys, Intake intake, Clock clock) {
        this.originals = originals;
        this.rules = rules;
        this.keys = keys;
        this.intake = intake;
        this.clock = clock;
    }

    /** Checks the return, then pays it through the intake: refused, accepted (or replayed), or unknown. */
    public Outcome request(Caller caller, IdempotencyKey key, ReturnOrder order) {
        return switch (prepare(caller, key, order)) {
            case Prepared.Refused refused -> new Outcome.Rejected(refused.problem());
            case Prepared.Ready ready -> intake.accept(caller, key, ready.request());
        };
    }

    /** The checks alone: the payment order that would settle the return, or why it is refused. */
    public Prepared prepare(Caller caller, IdempotencyKey key, ReturnOrder order) {
        if (order.amountCentavos() <= 0) {
            return refused(Refusal.ofField(
                    RefusalReason.INVALID_AMOUNT,
                    "amountCentavos",
                    "amountCentavos must be a positive integer, got " + order.amountCentavos()));
        }
        OriginalPayment original = originals
                .find(Set.of(order.original()), payment -> ReturnRules.mayRead(caller, payment))
                .get(order.original());
        Optional<Refusal> refusal = rules.checkOriginal(caller, order.original(), original);
        if (refusal.isPresent()) {
            return refused(refusal.get());
        }
        refusal = rules.checkReturnable(order.original(), original, order.amountCentavos(), clock.instant());
        if (refusal.isPresent() && order.amountCentavos() > original.payment().amountCentavos()) {
            // More than the whole payment: no return was ever accepted so, hence no replay, and no order to build.
            return refused(refusal.get());
        }
        PaymentRequest request = new PaymentRequest(
                original.payment().payee(),
                original.payment().payer(),
                order.amountCentavos(),
                PaymentRequest.CURRENCY_BRL,
                order.description(),
                order.returnId(),
                new PaymentRequest.ReturnOf(order.original(), original.payment().amountCentavos(), order.reason()));
        if (refusal.isPresent() && !isReplay(caller, key, request)) {
            return refused(refusal.get());
        }
        return new Prepared.Ready(request);
    }

    /** Whether the key, or the return id, already names a return made with this very request. */
    private boolean isReplay(Caller caller, IdempotencyKey key, PaymentRequest request) {
        List<ScopedId> ids = request.endToEndId() == null
                ? List.of()
                : List.of(new ScopedId(caller, new PixId(request.endToEndId())));
        byte[] fingerprint = request.fingerprint();
        Found found = keys.find(List.of(new Scoped(caller, key)), ids);
        return Stream.concat(found.byKey().values().stream(), found.byId().values().stream())
                .anyMatch(stored -> Arrays.equals(stored.requestSha256(), fingerprint));
    }

    private static Prepared refused(Refusal refusal) {
        return new Prepared.Refused(refusal);
    }
}
