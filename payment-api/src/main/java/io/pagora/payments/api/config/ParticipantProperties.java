package io.pagora.payments.api.config;

import io.pagora.kernel.Check;
import io.pagora.payments.api.application.ParticipantStreams;
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
 *     the bank gets them again
 * @param idleTimeout a stream not pulled for this long is closed
 * @param readersMax banks whose stream reader (a Kafka consumer each) is kept between reads
 * @param answersMax answers per {@code POST …/answers}
 * @param answersBodyMax the largest body of an answering call
 * @param verdictTimeout how long an answering call waits for the ledger's verdicts before answering 503 verdict-pending
 * @param waitingCallsMax answering calls waiting for verdicts at once; beyond, 503 at once
 */
@ConfigurationProperties("pagora.participants")
public record ParticipantProperties(
        @DefaultValue("6") int streamsMax,
        @DefaultValue("2000") int messagesMax,
        @DefaultValue("5s") Duration pullWait,
        @DefaultValue("30s") Duration leaseTimeout,
        @DefaultValue("60s") Duration idleTimeout,
        @DefaultValue("64") int readersMax,
        @DefaultValue("1000") int answersMax,
        @DefaultValue("1MB") DataSize answersBodyMax,
        @DefaultValue("10s") Duration verdictTimeout,
        @DefaultValue("256") int waitingCallsMax) {

    public ParticipantProperties {
        Check.that(readersMax >= 1 && readersMax <= 64, "pagora.participants.readers-max in [1, 64]: %d", readersMax);
        Check.that(answersMax >= 1 && answersMax <= 10_000, "pagora.participants.answers-max in [1, 10000]: %d", answersMax);
        Check.that(answersBodyMax.toBytes() >= 1024 && answersBodyMax.toMegabytes() <= 16,
                "pagora.participants.answers-body-max in [1KB, 16MB]: %s", answersBodyMax);
        Check.that(verdictTimeout.toMillis() >= 100 && verdictTimeout.compareTo(Duration.ofMinutes(1)) <= 0,
                "pagora.participants.verdict-timeout in [100ms, 1m]: %s", verdictTimeout);
        Check.that(waitingCallsMax >= 1 && waitingCallsMax <= 10_000,
                "pagora.participants.waiting-calls-max in [1, 10000]: %d", waitingCallsMax);
    }

    public ParticipantStreams.Limits limits() {
        return new ParticipantStreams.Limits(streamsMax, messagesMax, pullWait, leaseTimeout, idleTimeout);
    }
}
