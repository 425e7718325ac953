package io.pagora.payments.api.application.intake;

import io.pagora.payments.api.application.intake.PaymentIntake.Order;
import java.util.List;

/**
 * The intake's first step for payments by key: each order naming its payee by key becomes an order by account (the
 * account its look-up found, the key still pointing there) or a refusal; the others pass unchanged. One round trip for
 * the whole batch.
 */
public interface PayeeKeys {

    /** The orders, in order, with every keyed order resolved or refused. */
    List<Order> resolve(List<Order> orders);

    /** No payments by key: every order passes as it is (a keyed one would be a wiring error). */
    PayeeKeys NONE = orders -> {
        for (Order order : orders) {
            if (order.keyed() != null) {
                throw new IllegalStateException("a payment by key, and no directory wired");
            }
        }
        return orders;
    };
}
