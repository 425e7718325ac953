package io.pagora.payments.api.application.directory.payment;

import io.pagora.kernel.Check;
import io.pagora.payments.api.application.directory.LookupStore;
import io.pagora.payments.api.application.directory.LookupStore.Found;
import io.pagora.payments.api.application.directory.LookupStore.Naming;
import io.pagora.payments.api.application.directory.LookupStore.Reserved;
import io.pagora.payments.api.application.directory.lookup.LookingUpKeys;
import io.pagora.payments.api.application.intake.PayeeKeys;
import io.pagora.payments.api.application.intake.PaymentIntake.Order;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.KeyedPayment;
import io.pagora.settlement.domain.PixId;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Payments by key (typed, or from a BR Code): each names the end-to-end id its look-up reserved, and is paid to the
 * account that look-up found, provided the key still points there. The first payment naming a look-up marks it paid
 * and gives its tokens back ({@link LookingUpKeys#paid}); a later one (a replay, a retry) is paid to the same account
 * without asking the key again, so a replay answers as its first request did.
 */
public final class PayingByKey implements PayeeKeys {

    private final LookupStore lookups;
    private final LookingUpKeys lookingUp;
    private final Duration validFor;
    private final Clock clock;

    /** @param validFor how long after its look-up a payment may name it */
    public PayingByKey(LookupStore lookups, LookingUpKeys lookingUp, Duration validFor, Clock clock) {
        Check.that(!validFor.isNegative() && !validFor.isZero(), "a look-up is valid for a while");
        this.lookups = lookups;
        this.lookingUp = lookingUp;
        this.validFor = validFor;
        this.clock = clock;
    }

    @Override
    public List<Order> resolve(List<Order> orders) {
        Set<Naming> namings = new LinkedHashSet<>();
        for (Order order : orders) {
            if (order.keyed() != null && order.keyed().check().isEmpty()) {
                namings.add(naming(order));
            }
        }
        if (namings.isEmpty() && orders.stream().noneMatch(order -> order.keyed() != null)) {
            return orders;
        }
        Map<Naming, Found> found = namings.isEmpty()
                ? Map.of()
                : lookups.pay(namings, clock.instant().minus(validFor));
        List<Order> resolved = new ArrayList<>(orders.size());
        List<Reserved> paid = new ArrayList<>();
        for (Order order : orders) {
            KeyedPayment keyed = order.keyed();
            if (keyed == null) {
                resolved.add(order);
                continue;
            }
            Optional<Refusal> problem = keyed.check();
            if (problem.isEmpty()) {
                problem = check(keyed, found.get(naming(order)));
            }
            if (problem.isPresent()) {
                resolved.add(Order.malformed(order.caller(), problem.get()));
                continue;
            }
            Found lookup = found.get(naming(order));
            if (lookup.firstPayment()) {
                paid.add(lookup.reserved());
            }
            resolved.add(Order.of(
                    order.caller(), order.key(), keyed.to(lookup.reserved().account())));
        }
        if (!paid.isEmpty()) {
            lookingUp.paid(paid);
        }
        return resolved;
    }

    private Optional<Refusal> check(KeyedPayment keyed, Found lookup) {
        if (lookup == null) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.UNKNOWN_LOOK_UP,
                    "endToEndId",
                    "no look-up of your bank in the last " + validFor.toMinutes() + " minutes reserved end-to-end id "
                            + keyed.endToEndId() + ": look the key up (POST /directory/lookups) and pay with the"
                            + " endToEndId it answers"));
        }
        if (!lookup.reserved().key().equals(keyed.payeeKey())) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.LOOK_UP_KEY_MISMATCH,
                    keyed.field(),
                    "end-to-end id " + keyed.endToEndId() + " was reserved by a look-up of another key"));
        }
        // Paid before: a replay or a retry pays where the first payment did. A concurrent first payment that won the
        // mark leaves this one neither first nor paid before in its snapshot, the key unmoved.
        if (!lookup.paidBefore() && !lookup.keyUnmoved()) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.KEY_MOVED,
                    keyed.field(),
                    "the key was deleted or moved to another account since its look-up: look it up again, show the"
                            + " payer whom they pay, and pay with the new look-up's endToEndId"));
        }
        return Optional.empty();
    }

    private static Naming naming(Order order) {
        return new Naming(
                order.caller().principalName(), new PixId(order.keyed().endToEndId()));
    }
}
