package io.pagora.clearing.adapter.bank;

import io.pagora.clearing.application.bank.ReceivingBank;
import io.pagora.clearing.domain.BankAnswer;
import io.pagora.kernel.Check;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * "Bank B" of the seed: a simulated receiving bank that accepts, refuses or does not answer at
 * configured rates, after one simulated round trip per batch.
 *
 * <p>Its answer for a payment is a pure function of the payment id (a hash mapped to [0, 1)), so a
 * redelivery after a crash gets the same answer as the first attempt — as a real PSP's idempotent
 * API would. A real connector replaces this bean (it is created only when no other
 * {@link ReceivingBank} exists).
 */
public final class SimulatedReceivingBank implements ReceivingBank {

    /** Upper bound of the simulated round trip: a misconfiguration must not stall clearing. */
    public static final Duration ANSWER_LATENCY_MAX = Duration.ofSeconds(5);

    private final double acceptRate;
    private final double noAnswerRate;
    private final Duration answerLatency;

    /**
     * @param acceptRate share of payments accepted, in [0, 1]
     * @param noAnswerRate share of payments never answered, in [0, 1 − acceptRate]; the rest are refused
     * @param answerLatency simulated round trip of one batch call
     */
    public SimulatedReceivingBank(double acceptRate, double noAnswerRate, Duration answerLatency) {
        Check.that(acceptRate >= 0 && acceptRate <= 1, "accept-rate in [0, 1]: %s", acceptRate);
        Check.that(
                noAnswerRate >= 0 && acceptRate + noAnswerRate <= 1 + 1e-9,
                "no-answer-rate in [0, 1 - accept-rate]: %s (accept-rate %s)",
                noAnswerRate,
                acceptRate);
        Check.that(
                !answerLatency.isNegative() && answerLatency.compareTo(ANSWER_LATENCY_MAX) <= 0,
                "answer-latency in [0, %s]: %s",
                ANSWER_LATENCY_MAX,
                answerLatency);
        this.acceptRate = acceptRate;
        this.noAnswerRate = noAnswerRate;
        this.answerLatency = answerLatency;
    }

    @Override
    public List<BankAnswer> decide(List<Payment> payments) {
        simulateRoundTrip();
        List<BankAnswer> answers = new ArrayList<>(payments.size());
        for (Payment payment : payments) {
            answers.add(answer(payment.id()));
        }
        return answers;
    }

    /** The answer for one payment: deterministic in its id. */
    public BankAnswer answer(PaymentId id) {
        double draw = draw(id);
        if (draw < acceptRate) {
            return BankAnswer.ACCEPTED;
        }
        if (draw < acceptRate + noAnswerRate) {
            return BankAnswer.NO_ANSWER;
        }
        return new BankAnswer.Refused("simulated refusal by the receiving bank");
    }

    /** Maps a payment id uniformly to [0, 1): SplitMix64's finalizer over both halves. */
    static double draw(PaymentId id) {
        long mixed = mix(mix(id.value().hi()) ^ id.value().lo());
        return (mixed >>> 11) * 0x1.0p-53;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private void simulateRoundTrip() {
        if (answerLatency.isZero()) {
            return;
        }
        try {
            Thread.sleep(answerLatency);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the receiving bank", e);
        }
    }
}
