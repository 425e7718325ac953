package io.pagora.clearing.adapter.kafka;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.pagora.clearing.application.participants.AnswerRequest;
import io.pagora.clearing.application.participants.ApplyingAnswers;
import io.pagora.clearing.config.ClearingProperties;
import io.pagora.events.ConsumerGroups;
import io.pagora.events.Topics;
import io.pagora.events.participant.Answer;
import io.pagora.events.participant.AnswerBatch;
import io.pagora.events.participant.ParticipantCodec;
import io.pagora.events.participant.Verdict;
import io.pagora.events.participant.VerdictBatch;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.PaymentId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.support.SendResult;
import org.springframework.stereotype.Component;

/**
 * Consumes banks' answers ({@link Topics#PARTICIPANT_ANSWERS}) a poll at a time: the poll's answers are applied with
 * one lookup, one post and one void request per {@value #ANSWERS_PER_APPLY_MAX} ({@link ApplyingAnswers}), then each
 * answering call's verdicts go to {@link Topics#PARTICIPANT_VERDICTS} for the gateway holding the call. Offsets are committed after every outcome and
 * verdict is acknowledged; a redelivered answer is applied again, idempotently (the ledger answers {@code exists} and
 * the verdict is the same). A record that is not an answer batch is dead-lettered.
 */
@Component
@ConditionalOnProperty(name = "pagora.clearing.receiving-bank", havingValue = ClearingProperties.PARTICIPANTS_BANK)
public class AnswersListener {

    private static final Logger log = LoggerFactory.getLogger(AnswersListener.class);

    public static final String ID = "clearing-answers";
    /** Answers applied per ledger round (a lookup, a post, a void): their legs fill a few ledger requests. */
    static final int ANSWERS_PER_APPLY_MAX = 8_192;

    private final ApplyingAnswers answering;
    private final DeadLetters deadLetters;
    private final KafkaTemplate<String, byte[]> kafka;
    private final Duration timeout;
    private final DistributionSummary answersPerPoll;

    public AnswersListener(
            ApplyingAnswers answering,
            DeadLetters deadLetters,
            KafkaTemplate<String, byte[]> kafka,
            ClearingProperties properties,
            MeterRegistry meters) {
        this.answering = answering;
        this.deadLetters = deadLetters;
        this.kafka = kafka;
        this.timeout = properties.publishTimeout();
        this.answersPerPoll = DistributionSummary.builder("pagora.clearing.answers.batch.size")
                .description("Bank answers applied per clearing poll (a lookup, a post and a void per 8,192)")
                .register(meters);
    }

    @KafkaListener(
            id = ID,
            topics = Topics.PARTICIPANT_ANSWERS,
            clientIdPrefix = ID,
            groupId = "${pagora.clearing.answers-group-id:" + ConsumerGroups.CLEARING_ANSWERS + "}",
            containerFactory = KafkaConfiguration.PAYMENTS_LISTENER_FACTORY,
            batch = "true")
    public void onPoll(List<ConsumerRecord<String, byte[]>> records) {
        List<AnswerBatch> batches = new ArrayList<>(records.size());
        List<DeadLetters.DeadLetter> rejects = new ArrayList<>();
        List<AnswerRequest> answers = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> record : records) {
            try {
                AnswerBatch batch = ParticipantCodec.decode(record.value(), AnswerBatch.class);
                BankId bank = new BankId(Integer.parseInt(batch.bank()));
                batches.add(batch);
                batch.answers().stream()
                        .map(answer -> request(bank, answer))
                        .filter(java.util.Objects::nonNull)
                        .forEach(answers::add);
            } catch (RuntimeException e) {
                rejects.add(new DeadLetters.DeadLetter(record, "not an answer batch: " + e.getMessage()));
            }
        }
        deadLetters.send(rejects);
        java.util.Iterator<Verdict> verdicts = answerInGroups(answers).iterator();
        List<CompletableFuture<SendResult<String, byte[]>>> sends = new ArrayList<>(batches.size());
        for (AnswerBatch batch : batches) {
            List<Verdict> own = new ArrayList<>(batch.answers().size());
            for (Answer answer : batch.answers()) {
                // An id that cannot name a payment was not sent to clearing: no payment awaits that answer.
                own.add(
                        isPaymentId(answer.paymentId())
                                ? verdicts.next()
                                : new Verdict(answer.paymentId(), Verdict.Code.UNKNOWN_PAYMENT, ""));
            }
            sends.add(kafka.send(new ProducerRecord<>(
                    Topics.PARTICIPANT_VERDICTS,
                    batch.requestId(),
                    ParticipantCodec.encode(new VerdictBatch(batch.requestId(), own)))));
        }
        KafkaSends.awaitAll(sends, timeout, "verdicts");
        answersPerPoll.record(answers.size());
        log.debug("applied {} answers of {} calls", answers.size(), batches.size());
    }

    /**
     * Applies the poll's answers {@value #ANSWERS_PER_APPLY_MAX} at a time, verdicts in order: a poll of answering
     * calls can hold millions of answers (each call up to a thousand), and applying them at once would hold all their
     * chains and legs in memory at once.
     */
    private List<Verdict> answerInGroups(List<AnswerRequest> answers) {
        List<Verdict> verdicts = new ArrayList<>(answers.size());
        for (int from = 0; from < answers.size(); from += ANSWERS_PER_APPLY_MAX) {
            int to = Math.min(answers.size(), from + ANSWERS_PER_APPLY_MAX);
            verdicts.addAll(answering.answer(answers.subList(from, to)));
        }
        return verdicts;
    }

    /** The answer as clearing takes it, or null when its id cannot name a payment. */
    static AnswerRequest request(BankId bank, Answer answer) {
        PaymentId payment = paymentIdOrNull(answer.paymentId());
        if (payment == null) {
            return null;
        }
        AnswerRequest request = answer.accept()
                ? AnswerRequest.accept(bank, payment)
                : AnswerRequest.refuse(bank, payment, answer.refusal());
        return request.withEndToEndId(answer.endToEndId());
    }

    private static boolean isPaymentId(String text) {
        return paymentIdOrNull(text) != null;
    }

    private static PaymentId paymentIdOrNull(String text) {
        if (text == null || !Id128.isHexDigits32(text)) {
            return null;
        }
        try {
            return PaymentId.parse(text);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
