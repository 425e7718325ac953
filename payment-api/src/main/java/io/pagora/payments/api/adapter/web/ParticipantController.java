package io.pagora.payments.api.adapter.web;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.pagora.events.participant.Answer;
import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.answers.ParticipantAnswers;
import io.pagora.payments.api.application.streams.ParticipantStreams;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.service.metrics.LatencyHistograms;
import io.pagora.settlement.application.AccessRefusals;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.access.AccessRefusal;
import io.pagora.settlement.domain.access.Caller;
import jakarta.servlet.http.HttpServletRequest;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The participants' side of the switch (docs/participants.md), after PIX's ICOM: each bank pulls its messages from
 * its own streams ({@code GET …/stream/start}, then the {@value #PULL_NEXT} each answer names; {@code DELETE} closes)
 * and answers instructions, many per call ({@code POST …/answers}) or one ({@code PUT …/payments/{id}/answer}). A
 * bank reaches only its own: the path's ISPB must be the caller's certificate's.
 */
@RestController
public class ParticipantController {

    /** The next pull's path; fetching it acknowledges this answer's messages. */
    public static final String PULL_NEXT = "PI-Pull-Next";

    static final String ANSWER_LATENCY = "pagora.participants.answer.latency";
    static final String STREAM_LAG = "pagora.participants.stream.lag";
    /** Beyond the longest a payment can wait for its answer (pending timeouts are seconds): not a latency of ours. */
    private static final long SAMPLE_AGE_MAX_MILLIS = TimeUnit.HOURS.toMillis(1);

    private static final byte[] OPEN = "{\"messages\":[".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLOSE = "]}".getBytes(StandardCharsets.US_ASCII);

    private final ParticipantStreams streams;
    private final ParticipantAnswers answers;
    private final int answersMax;
    private final int bodyMaxBytes;
    private final MeterRegistry meters;
    private final AccessRefusals refusals;

    public ParticipantController(
            ParticipantStreams streams,
            ParticipantAnswers answers,
            int answersMax,
            int bodyMaxBytes,
            MeterRegistry meters,
            AccessRefusals refusals) {
        this.streams = streams;
        this.refusals = refusals;
        this.answers = answers;
        this.answersMax = answersMax;
        this.bodyMaxBytes = bodyMaxBytes;
        this.meters = meters;
    }

    @GetMapping("/participants/{ispb}/stream/start")
    public ResponseEntity<byte[]> start(Caller caller, @PathVariable("ispb") String ispb) {
        BankId bank = own(caller, ispb);
        return answer(bank, streams.start(bank));
    }

    @GetMapping("/participants/{ispb}/stream/pull/{token}")
    public ResponseEntity<byte[]> pull(
            Caller caller, @PathVariable("ispb") String ispb, @PathVariable("token") String token) {
        BankId bank = own(caller, ispb);
        return answer(bank, streams.pull(bank, token));
    }

    @DeleteMapping("/participants/{ispb}/stream/pull/{token}")
    public ResponseEntity<Void> close(
            Caller caller, @PathVariable("ispb") String ispb, @PathVariable("token") String token) {
        streams.close(own(caller, ispb), token);
        return ResponseEntity.noContent().build();
    }

    /** Up to {@code answersMax} answers; 200 with one result per answer, in order (a refused one carries its problem). */
    @PostMapping("/participants/{ispb}/answers")
    public ResponseEntity<AnswerJson.Results> answerMany(
            Caller caller, @PathVariable("ispb") String ispb, HttpServletRequest http) {
        BankId bank = own(caller, ispb);
        List<Answer> parsed = AnswerJson.parseMany(JsonBodies.read(http, bodyMaxBytes), answersMax);
        return ResponseEntity.ok(AnswerJson.results(timedAnswer(bank, parsed)));
    }

    /** One answer: 200 with the payment's state, or the problem that says why it moved nothing. */
    @PutMapping("/participants/{ispb}/payments/{paymentId}/answer")
    public ResponseEntity<Object> answerOne(
            Caller caller,
            @PathVariable("ispb") String ispb,
            @PathVariable("paymentId") String paymentId,
            HttpServletRequest http) {
        BankId bank = own(caller, ispb);
        String id = AnswerJson.pathPaymentId(paymentId);
        Answer answer = AnswerJson.parseOne(id, JsonBodies.read(http, bodyMaxBytes));
        return switch (timedAnswer(bank, List.of(answer)).getFirst()) {
            case ParticipantAnswers.Result.Applied applied ->
                ResponseEntity.ok(new AnswerJson.State(applied.paymentId(), applied.status()));
            case ParticipantAnswers.Result.Refused refused ->
                Problems.response(refused.refusal(), http.getRequestURI());
        };
    }

    /**
     * Answers, metered per bank: the answering call's time (store, apply, verdict back) and each answer's result
     * ({@code pagora.participants.answers{bank,result}}: SETTLED, REJECTED or the problem's slug).
     */
    private List<ParticipantAnswers.Result> timedAnswer(BankId bank, List<Answer> parsed) {
        recordAnswerLatency(bank, parsed);
        long started = System.nanoTime();
        List<ParticipantAnswers.Result> results = answers.answer(bank, parsed);
        LatencyHistograms.timer(
                        "pagora.participants.answer.call",
                        "An answering call: stored, applied by the ledger," + " its verdicts back")
                .tag("bank", bank.toString())
                .register(meters)
                .record(java.time.Duration.ofNanos(System.nanoTime() - started));
        // Counted per result once a call, not looked up in the registry once an answer (a call carries up to 1,000).
        Map<String, Integer> counts = new java.util.HashMap<>();
        for (ParticipantAnswers.Result result : results) {
            String tag = switch (result) {
                case ParticipantAnswers.Result.Applied applied -> applied.status();
                case ParticipantAnswers.Result.Refused refused ->
                    refused.refusal().type().slug;
            };
            counts.merge(tag, 1, Integer::sum);
        }
        counts.forEach(
                (tag, count) -> meters.counter("pagora.participants.answers", "bank", bank.toString(), "result", tag)
                        .increment(count));
        return results;
    }

    /**
     * How long the bank took, per bank: from each payment's acceptance (payment-api mints payment ids from its clock,
     * TimeOrderedIds) to its answer arriving here. An id from outside that window (not minted here, or a clock step)
     * is not a sample.
     */
    private void recordAnswerLatency(BankId bank, List<Answer> parsed) {
        Timer latency = LatencyHistograms.timer(
                        ANSWER_LATENCY, "From a payment's acceptance to its receiving bank's" + " answer arriving")
                .tag("bank", bank.toString())
                .register(meters);
        long nowMillis = System.currentTimeMillis();
        for (Answer answer : parsed) {
            long ageMillis = nowMillis - TimeOrderedIds.issuedAtMillis(Id128.parse(answer.paymentId()));
            if (ageMillis >= 0 && ageMillis <= SAMPLE_AGE_MAX_MILLIS) {
                latency.record(ageMillis, TimeUnit.MILLISECONDS);
            }
        }
    }

    /** The bank the path names, which must be the caller; any other caller is refused and counted. */
    private BankId own(Caller caller, String ispb) {
        if (!(caller instanceof Caller.Bank(BankId bank)) || !bank.toString().equals(ispb)) {
            refusals.refused(caller, AccessRefusal.FOREIGN_STREAM);
            throw new RefusalException(Refusal.of(
                    RefusalReason.NOT_YOUR_STREAM,
                    "a participant reads and answers only its own messages: the path must name the caller's ISPB"));
        }
        return bank;
    }

    private ResponseEntity<byte[]> answer(BankId bank, ParticipantStreams.Pull pull) {
        meters.counter("pagora.participants.messages.delivered", "bank", bank.toString())
                .increment(pull.count());
        if (pull.oldestMillis() > 0) {
            // How far behind the bank reads: the age of the oldest message this pull hands over.
            LatencyHistograms.timer(
                            STREAM_LAG,
                            "Age of the oldest message a pull delivers (written to the log until"
                                    + " handed to the bank)")
                    .tag("bank", bank.toString())
                    .register(meters)
                    .record(Math.max(0, System.currentTimeMillis() - pull.oldestMillis()), TimeUnit.MILLISECONDS);
        }
        meters.counter(
                        "pagora.participants.pulls",
                        "bank",
                        bank.toString(),
                        "answer",
                        pull.count() == 0 ? "204" : "200")
                .increment();
        String next = "/participants/" + bank + "/stream/pull/" + pull.nextToken();
        if (pull.count() == 0) {
            return ResponseEntity.status(HttpStatus.NO_CONTENT)
                    .header(PULL_NEXT, next)
                    .build();
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream(
                pull.records().stream().mapToInt(r -> r.length).sum() + 16);
        body.writeBytes(OPEN);
        boolean first = true;
        for (byte[] record : pull.records()) {
            // Each record is a JSON array: its elements join the answer's array.
            if (!first) {
                body.write(',');
            }
            body.write(record, 1, record.length - 2);
            first = false;
        }
        body.writeBytes(CLOSE);
        return ResponseEntity.ok()
                .contentType(MediaType.APPLICATION_JSON)
                .header(PULL_NEXT, next)
                .header("Pagora-Message-Count", Integer.toString(pull.count()))
                .body(body.toByteArray());
    }
}
