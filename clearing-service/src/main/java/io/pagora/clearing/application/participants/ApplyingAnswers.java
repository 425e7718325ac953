package io.pagora.clearing.application.participants;

import io.pagora.clearing.application.OutcomePublisher;
import io.pagora.clearing.application.Outcomes;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.RejectionReason;
import io.pagora.events.participant.RefusalCode;
import io.pagora.events.participant.Verdict;
import io.pagora.kernel.Check;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.VoidCause;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies banks' answers to instructed payments, in one post and one void request (after one lookup of the reserved
 * chains): each answer gets the ledger's verdict. An answer to a payment the ledger does not hold reserved, or not
 * addressed to the answering bank, is {@link Verdict.Code#UNKNOWN_PAYMENT} and moves nothing. The ledger arbitrates
 * between answers and the expiry path: the first post or void of a chain wins, every later one reads it back
 * ({@link Verdict.Code#CONFLICT}, or {@link Verdict.Code#EXPIRED}). An answer that took effect (now, or the same
 * answer before) publishes its outcome, again if need be, with the end-to-end id the answer carries.
 */
public final class ApplyingAnswers {

    private static final Logger log = LoggerFactory.getLogger(ApplyingAnswers.class);

    private final Settlement settlement;
    private final OutcomePublisher publisher;
    private final Outcomes outcomes;
    private final InstructedEndToEndIds endToEndIds;

    public ApplyingAnswers(
            Settlement settlement, OutcomePublisher publisher, Outcomes outcomes, InstructedEndToEndIds endToEndIds) {
        this.settlement = settlement;
        this.publisher = publisher;
        this.outcomes = outcomes;
        this.endToEndIds = endToEndIds;
    }

    public List<Verdict> answer(List<AnswerRequest> answers) {
        if (answers.isEmpty()) {
            return List.of();
        }
        Map<PaymentId, Payment> reserved = settlement.reservedPayments(
                answers.stream().map(AnswerRequest::payment).distinct().toList());
        Map<PaymentId, Payment> accepted = new LinkedHashMap<>();
        Map<PaymentId, Payment> refused = new LinkedHashMap<>();
        Map<PaymentId, RefusalCode> refusals = new HashMap<>();
        for (AnswerRequest answer : answers) {
            Payment payment = reserved.get(answer.payment());
            if (payment == null || !payment.payeeBank().equals(answer.bank())) {
                continue;
            }
            if (answer.accepts()) {
                accepted.put(payment.id(), payment);
            } else {
                refused.put(payment.id(), payment);
                refusals.putIfAbsent(payment.id(), answer.refusal());
            }
        }
        Map<PaymentId, ResolutionOutcome> posts = zip(accepted, settlement.post(List.copyOf(accepted.values())));
        Map<PaymentId, ResolutionOutcome> voids =
                zip(refused, settlement.voidAll(List.copyOf(refused.values()), VoidCause.RECEIVING_BANK_REFUSED));
        List<PaymentOutcome> results = new ArrayList<>();
        Set<PaymentId> published = new HashSet<>();
        List<Verdict> verdicts = new ArrayList<>(answers.size());
        for (AnswerRequest answer : answers) {
            Payment payment = reserved.get(answer.payment());
            ResolutionOutcome resolution = (answer.accepts() ? posts : voids).get(answer.payment());
            if (payment == null || resolution == null) {
                verdicts.add(new Verdict(answer.payment().toString(), Verdict.Code.UNKNOWN_PAYMENT, ""));
                continue;
            }
            Verdict verdict = verdictOf(answer, resolution);
            verdicts.add(verdict);
            if (verdict.code() == Verdict.Code.APPLIED && published.add(payment.id())) {
                String endToEndId = endToEndIds.ofAnswer(payment.id(), answer.endToEndId());
                results.add(
                        answer.accepts()
                                ? outcomes.settled(payment, endToEndId)
                                : outcomes.rejected(
                                        payment,
                                        RejectionReason.RECEIVING_BANK_REFUSED,
                                        Outcomes.refusalDetail(refusals.get(payment.id())),
                                        endToEndId));
            }
        }
        publisher.publish(results);
        return verdicts;
    }

    /** The verdict on one answer, from what the ledger did with its chain. */
    private static Verdict verdictOf(AnswerRequest answer, ResolutionOutcome resolution) {
        String id = answer.payment().toString();
        return switch (resolution) {
            case ResolutionOutcome.Posted ignored ->
                answer.accepts()
                        ? new Verdict(id, Verdict.Code.APPLIED, "SETTLED")
                        : new Verdict(id, Verdict.Code.CONFLICT, "SETTLED");
            case ResolutionOutcome.Voided voided ->
                switch (voided.cause()) {
                    case RECEIVING_BANK_REFUSED ->
                        answer.accepts()
                                ? new Verdict(id, Verdict.Code.CONFLICT, "REJECTED")
                                : new Verdict(id, Verdict.Code.APPLIED, "REJECTED");
                    case UNANSWERED -> new Verdict(id, Verdict.Code.EXPIRED, "EXPIRED");
                };
            case ResolutionOutcome.Expired ignored -> new Verdict(id, Verdict.Code.EXPIRED, "EXPIRED");
            case ResolutionOutcome.IntegrityAlarm alarm -> {
                log.error(
                        "INTEGRITY ALARM: payment {}: answering, leg {} answered {}; the answer is not applied",
                        id,
                        alarm.leg(),
                        alarm.code());
                yield new Verdict(id, Verdict.Code.UNRESOLVED, "");
            }
        };
    }

    private static Map<PaymentId, ResolutionOutcome> zip(
            Map<PaymentId, Payment> payments, List<ResolutionOutcome> resolutions) {
        Check.that(resolutions.size() == payments.size(), "one resolution per payment");
        Map<PaymentId, ResolutionOutcome> byPayment = new HashMap<>();
        int i = 0;
        for (PaymentId id : payments.keySet()) {
            byPayment.put(id, resolutions.get(i++));
        }
        return byPayment;
    }
}
