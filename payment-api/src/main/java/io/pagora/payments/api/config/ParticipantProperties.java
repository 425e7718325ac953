package io.pagora.payments.api.config;

import io.pagora.kernel.Check;
import io.pagora.payments.api.application.streams.ParticipantStreams;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * {@code pagora.participants.*}: the limits of the participants' streams and answers (docs/participants.md).
 *
 * @param streamsMax open streams per participant; one more is refused with 429 (PIX's ICOM: 6)
 * @param messagesMax messages per pull at most (whole records of up to 500: a pull may return a little less)
 * @param pullWait how long a pull with nothing new waits before answering 204
 * @param leaseTimeout how long pulled messages wait for their acknowledgement (the next pull) before any stream of
 *     the bank gets them again; at most half the answer window, so a redelivered instruction still has time to be
 *     answered
 * @param idleTimeout a stream not pulled for this long is closed
 * @param readersMax banks whose own stream reader (a Kafka consumer each: for a bank behind its partition's shared
 *     window, and the start of the log) is kept between reads; beyond, the least recently used is closed, never
 *     under a read in flight (it is closed when that read ends)
 * @param answersMax answers per {@code POST …/answers}
 * @param answersBodyMax the largest body of an answering call
 * @param verdictTimeout how long an answering call waits for the ledger's verdicts before answering 503 verdict-pending
 * @param waitingCallsMax answering calls waiting for verdicts at once; beyond, 503 at once
 * @param answerWindow the time a bank has to answer an instruction: clearing-service's
 *     {@code pagora.clearing.pending-timeout}, which payment-api cannot read; set both together
 */
@ConfigurationProperties("pagora.participants")
public record ParticipantProperties(
        @DefaultValue("6") int streamsMax,
        @DefaultValue("2000") int messagesMax,
        @DefaultValue("5s") Duration pullWait,
        @DefaultValue("10s") Duration leaseTimeout,
        @DefaultValue("60s") Duration idleTimeout,
        @DefaultValue("64") int readersMax,
        @DefaultValue("1000") int answersMax,
        @DefaultValue("1MB") DataSize answersBodyMax,
        @DefaultValue("10s") Duration verdictTimeout,
        @DefaultValue("256") int waitingCallsMax,
        @DefaultValue("30s") Duration answerWindow) {

    public ParticipantProperties {
        Check.that(readersMax >= 1 && readersMax <= 64, "pagora.participants.readers-max in [1, 64]: %d", readersMax);
        Check.that(
                answersMax >= 1 && answersMax <= 10_000,
                "pagora.participants.answers-max in [1, 10000]: %d",
                answersMax);
        Check.that(
                answersBodyMax.toBytes() >= 1024 && answersBodyMax.toMegabytes() <= 16,
                "pagora.participants.answers-body-max in [1KB, 16MB]: %s",
                answersBodyMax);
        Check.that(
                verdictTimeout.toMillis() >= 100 && verdictTimeout.compareTo(Duration.ofMinutes(1)) <= 0,
                "pagora.participants.verdict-timeout in [100ms, 1m]: %s",
                verdictTimeout);
        Check.that(
                waitingCallsMax >= 1 && waitingCallsMax <= 10_000,
                "pagora.participants.waiting-calls-max in [1, 10000]: %d",
                waitingCallsMax);
        // A lease that lapses only when the answer window is (nearly) over redelivers instructions nobody can still
        // answer: every one would expire all the same.
        Check.that(
                leaseTimeout.multipliedBy(2).compareTo(answerWindow) <= 0,
                "pagora.participants.lease-timeout (%s) is at most half of pagora.participants.answer-window (%s,"
                        + " clearing's pagora.clearing.pending-timeout)",
                leaseTimeout,
                answerWindow);
    }

    public ParticipantStreams.Limits limits() {
        return new ParticipantStreams.Limits(streamsMax, messagesMax, pullWait, leaseTimeout, idleTimeout);
    }
}
