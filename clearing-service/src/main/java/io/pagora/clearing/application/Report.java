package io.pagora.clearing.application;

import io.pagora.events.PaymentExpired;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentSettled;
import java.util.List;

/** What one batch did; for logs and metrics. */
public record Report(int payments, int settled, int rejected, int expired, int unanswered, List<Alarm> alarms) {

    public static final Report EMPTY = new Report(0, 0, 0, 0, 0, List.of());

    public static Report of(int payments, List<PaymentOutcome> results, int unanswered, List<Alarm> alarms) {
        int settled = 0;
        int rejected = 0;
        int expired = 0;
        for (PaymentOutcome outcome : results) {
            switch (outcome) {
                case PaymentSettled ignored -> settled++;
                case PaymentRejected ignored -> rejected++;
                case PaymentExpired ignored -> expired++;
            }
        }
        return new Report(payments, settled, rejected, expired, unanswered, List.copyOf(alarms));
    }
}
