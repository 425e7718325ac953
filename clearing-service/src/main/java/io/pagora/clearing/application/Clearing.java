package io.pagora.clearing.application;

import io.pagora.clearing.domain.BankAnswer;
import io.pagora.events.PaymentExpired;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentRequested;
import io.pagora.events.PaymentSettled;
import io.pagora.events.RejectionReason;
import io.pagora.events.ReturnOf;
import io.pagora.events.ReturnReason;
import io.pagora.kernel.Check;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.ChainState;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.VoidCause;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import io.pagora.events.participant.RefusalCode;
import io.pagora.events.participant.Verdict;
import io.pagora.settlement.domain.PaymentId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.IntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Clears one batch of requested payments (one Kafka poll) with a constant number of ledger requests:
 *
 * <ol>
 *   <li>one {@link Settlement#reserve} for every payment (all legs pending; refused ones are rejected);
 *   <li>one {@link ReceivingBank#decide} for every reserved payment;
 *   <li>one {@link Settlement#post} for the accepted, one {@link Settlement#voidAll} for the refused;
 *       the unanswered are parked until their pending chains time out ({@link #expire});
 *   <li>every outcome published, and acknowledged, before returning.
 * </ol>
 *
 * <p>Everything is idempotent: transfer ids derive from payment ids, so running a batch again after a
 * crash at any point (a redelivery) reproduces the same ledger requests, which answer {@code exists}
 * or the ledger's earlier resolution, and the same outcomes. Any exception (the ledger or Kafka
 * unavailable) leaves the batch uncommitted, to be run again.
 */
public final class Clearing {

    private static final Logger log = LoggerFactory.getLogger(Clearing.class);

    /** The detail of a refusal whose reason an earlier attempt received (the ledger keeps the cause, not the text). */
    static final String REFUSED_EARLIER = "refused by the receiving bank (answered to an earlier attempt)";

    private final Settlement settlement;
    /** Exactly one of {@code bank} (answers in process, in the poll) and {@code instructions} (participants answer). */
    private final ReceivingBank bank;
    private final Instructions instructions;
    private final OutcomePublisher outcomes;
    private final UnansweredPayments unanswered;
    private final Clock clock;
    private final Duration expiryMargin;
    /**
     * The end-to-end ids of the payments this instance instructed, for their outcomes on the answer and expiry paths
     * (which read a payment back from the ledger, where no id is kept). Bounded: the oldest are forgotten first, and a
     * payment answered after that, or by another instance, gets an outcome without one (its request has it).
     */
    private final Map<PaymentId, String> instructedEndToEndIds = Collections.synchronizedMap(
            new LinkedHashMap<>(1024, 0.75f, false) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<PaymentId, String> eldest) {
                    return size() > INSTRUCTED_END_TO_END_IDS_MAX;
                }
            });

    /** About 16 s of instructions at 12,000/s (pending timeout 5 s), ~30 MB at most. */
    static final int INSTRUCTED_END_TO_END_IDS_MAX = 200_000;

    /**
     * @param expiryMargin added to the pending timeout to get an unanswered payment's deadline, so the
     *     expiry worker acts after the ledger's own expiry despite clock differences
     */
    public Clearing(Settlement settlement, ReceivingBank bank, OutcomePublisher outcomes, UnansweredPayments unanswered,
            Clock clock, Duration expiryMargin) {
        this(settlement, Objects.requireNonNull(bank, "bank"), null, outcomes, unanswered, clock, expiryMargin);
    }

    /**
     * Clearing whose receiving banks are participants: a poll reserves and instructs, and their answers arrive
     * later, through {@link #answer}; the unanswered expire through {@link #expire}.
     */
    public static Clearing byParticipants(Settlement settlement, Instructions instructions, OutcomePublisher outcomes,
            UnansweredPayments unanswered, Clock clock, Duration expiryMargin) {
        return new Clearing(settlement, null, Objects.requireNonNull(instructions, "instructions"), outcomes, unanswered,
                clock, expiryMargin);
    }

    private Clearing(Settlement settlement, ReceivingBank bank, Instructions instructions, OutcomePublisher outcomes,
            UnansweredPayments unanswered, Clock clock, Duration expiryMargin) {
        Check.that(!expiryMargin.isNegative(), "expiry margin must not be negative: %s", expiryMargin);
        Check.that((bank == null) != (instructions == null), "clearing has one way to reach receiving banks");
        this.settlement = settlement;
        this.bank = bank;
        this.instructions = instructions;
        this.outcomes = outcomes;
        this.unanswered = unanswered;
        this.clock = clock;
        this.expiryMargin = expiryMargin;
    }

    /** What one batch did; for logs and metrics. */
    public record Report(int payments, int settled, int rejected, int expired, int unanswered, List<Alarm> alarms) {

        public static final Report EMPTY = new Report(0, 0, 0, 0, 0, List.of());

        static Report of(int payments, List<PaymentOutcome> results, int unanswered, List<Alarm> alarms) {
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

    /**
     * A payment whose ids hold something else in the ledger, confirmed by reading its chain back. It
     * gets no outcome: it is not a refusal (nothing is known of it but the conflict), and the payment
     * the ledger holds under that id keeps its own. The adapter sets its record aside, loudly.
     */
    public record Alarm(ClearingRequest request, String detail) {}

    /** Clears a batch: reserve, ask the receiving bank, post or void, park the unanswered, publish outcomes. */
    public Report clear(List<ClearingRequest> requests) {
        Pass pass = Pass.over(requests);
        if (pass.batch().isEmpty()) {
            return Report.EMPTY;
        }
        // Phase 1: reserve every chain in one request (Settlement splits beyond the ledger's batch limit).
        Instant reservedAt = clock.instant();
        List<ClearingRequest> reserved = reserve(pass);
        if (instructions != null) {
            return instruct(pass, reserved, reservedAt);
        }

        // Ask the receiving banks about everything reserved, in one call.
        List<ClearingRequest> accepted = new ArrayList<>();
        List<ClearingRequest> refused = new ArrayList<>();
        List<String> refusals = new ArrayList<>();
        List<ClearingRequest> noAnswer = new ArrayList<>();
        if (!reserved.isEmpty()) {
            List<BankAnswer> answers = bank.decide(payments(reserved));
            Check.that(answers.size() == reserved.size(), "one bank answer per payment: %d for %d",
                    answers.size(), reserved.size());
            for (int i = 0; i < reserved.size(); i++) {
                ClearingRequest request = reserved.get(i);
                switch (answers.get(i)) {
                    case BankAnswer.Accepted ignored -> accepted.add(request);
                    case BankAnswer.Refused refusal -> {
                        refused.add(request);
                        refusals.add(refusal.reason());
                    }
                    case BankAnswer.NoAnswer ignored -> noAnswer.add(request);
                }
            }
        }

        // Phase 2: one post for the accepted, one void for the refused.
        resolve(accepted, settlement::post, pass, i -> "");
        resolve(refused, payments -> settlement.voidAll(payments, VoidCause.RECEIVING_BANK_REFUSED), pass,
                refusals::get);

        parkForExpiry(noAnswer);
        outcomes.publish(pass.results());
        return pass.report(noAnswer.size());
    }

    /**
     * Participants answer: issue every fresh reservation's instruction, then park it for the expiry path; the poll is
     * then done. A chain an earlier attempt reserved (a redelivered poll) is first looked up: posted or voided, it
     * gets the outcome the ledger holds and no second instruction; still open, it is instructed again with the
     * deadline its first reservation set in the ledger (the bank drops the duplicate instruction by its id), or, that
     * deadline passed, voided as unanswered and expired, never instructed. Parking comes after the instruction is
     * stored: the expiry path publishes an outcome only for a parked payment, so a payment's outcome never precedes
     * its instruction on the bank's stream, however long issuing keeps failing.
     *
     * @param reservedAt read before the reservation: a fresh chain lapses no earlier than this plus the pending timeout
     */
    private Report instruct(Pass pass, List<ClearingRequest> reserved, Instant reservedAt) {
        Instant now = clock.instant();
        Instant freshAnswerBy = reservedAt.plusSeconds(settlement.pendingTimeoutSeconds());
        List<ClearingRequest> toInstruct = new ArrayList<>(reserved.size());
        List<Instructions.Instruction> instructed = new ArrayList<>(reserved.size());
        List<ClearingRequest> lapsed = new ArrayList<>();
        // Lapsed before any instruction was issued: the payee's bank never heard of them.
        Set<String> neverInstructed = new HashSet<>();
        List<ClearingRequest> earlier = new ArrayList<>();
        for (ClearingRequest request : reserved) {
            if (pass.reservedEarlier().contains(request)) {
                earlier.add(request);
            } else if (freshAnswerBy.isAfter(now)) {
                toInstruct.add(request);
                instructed.add(new Instructions.Instruction(request.event(), freshAnswerBy));
            } else {
                lapsed.add(request);
                neverInstructed.add(request.event().paymentId());
            }
        }
        if (!earlier.isEmpty()) {
            List<ChainState> states = settlement.inspect(payments(earlier));
            for (int i = 0; i < earlier.size(); i++) {
                ClearingRequest request = earlier.get(i);
                switch (states.get(i)) {
                    case ChainState.Open open -> {
                        // The ledger's deadline, not a new one: the bank is never given time the ledger does not.
                        if (open.expiresAt().isAfter(now)) {
                            toInstruct.add(request);
                            instructed.add(new Instructions.Instruction(request.event(), open.expiresAt()));
                        } else {
                            lapsed.add(request);
                        }
                    }
                    case ChainState.Posted ignored -> pass.results().add(settled(request));
                    case ChainState.Voided voided -> pass.results().add(voided(request, voided.cause(), ""));
                    case ChainState.Absent ignored -> pass.alarms().add(alarm(request, "reserved, yet the ledger holds no chain"));
                    case ChainState.Conflicting conflicting ->
                            pass.alarms().add(alarm(request, "the ledger holds " + conflicting.detail()));
                }
            }
        }
        // A lapsed chain takes the expiry path here and now: voided as unanswered (or read back as expired, or as
        // whatever an answer to an earlier instruction did first), and published, never instructed after.
        resolve(lapsed, payments -> settlement.voidAll(payments, VoidCause.UNANSWERED), pass, i -> "");
        if (!toInstruct.isEmpty()) {
            toInstruct.forEach(request -> instructedEndToEndIds.put(request.payment().id(), request.event().endToEndId()));
            instructions.issue(instructed);
            Instant latest = instructed.stream().map(Instructions.Instruction::answerBy).max(Instant::compareTo)
                    .orElseThrow();
            unanswered.parkInstructed(toInstruct.stream().map(request -> request.payment().id()).toList(),
                    latest.plus(expiryMargin));
        }
        // An earlier attempt may have instructed a redelivered chain before it lapsed: its payee's bank is told.
        outcomes.publish(pass.results(), neverInstructed);
        return pass.report(toInstruct.size());
    }

    /**
     * Applies banks' answers to instructed payments, in one post and one void request (after one lookup of the
     * reserved chains): each answer gets the ledger's verdict. An answer to a payment the ledger does not hold
     * reserved, or not addressed to the answering bank, is {@link Verdict.Code#UNKNOWN_PAYMENT} and moves nothing.
     * The ledger arbitrates between answers and the expiry path: the first post or void of a chain wins, every
     * later one reads it back ({@link Verdict.Code#CONFLICT}, or {@link Verdict.Code#EXPIRED}). An answer that
     * took effect (now, or the same answer before) publishes its outcome, again if need be.
     */
    public List<Verdict> answer(List<AnswerRequest> answers) {
        Check.that(instructions != null, "answers come from participants only");
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
        Map<PaymentId, ResolutionOutcome> voids = zip(refused,
                settlement.voidAll(List.copyOf(refused.values()), VoidCause.RECEIVING_BANK_REFUSED));
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
                results.add(answer.accepts() ? settled(payment)
                        : rejected(payment, RejectionReason.RECEIVING_BANK_REFUSED, refusalDetail(refusals.get(payment.id()))));
            }
        }
        outcomes.publish(results);
        return verdicts;
    }

    /** The verdict on one answer, from what the ledger did with its chain. */
    private static Verdict verdictOf(AnswerRequest answer, ResolutionOutcome resolution) {
        String id = answer.payment().toString();
        return switch (resolution) {
            case ResolutionOutcome.Posted ignored -> answer.accepts() ? new Verdict(id, Verdict.Code.APPLIED, "SETTLED")
                    : new Verdict(id, Verdict.Code.CONFLICT, "SETTLED");
            case ResolutionOutcome.Voided voided -> switch (voided.cause()) {
                case RECEIVING_BANK_REFUSED -> answer.accepts() ? new Verdict(id, Verdict.Code.CONFLICT, "REJECTED")
                        : new Verdict(id, Verdict.Code.APPLIED, "REJECTED");
                case UNANSWERED -> new Verdict(id, Verdict.Code.EXPIRED, "EXPIRED");
            };
            case ResolutionOutcome.Expired ignored -> new Verdict(id, Verdict.Code.EXPIRED, "EXPIRED");
            case ResolutionOutcome.IntegrityAlarm alarm -> {
                log.error("INTEGRITY ALARM: payment {}: answering, leg {} answered {}; the answer is not applied", id,
                        alarm.leg(), alarm.code());
                yield new Verdict(id, Verdict.Code.UNRESOLVED, "");
            }
        };
    }

    static String refusalDetail(RefusalCode code) {
        return code == null ? REFUSED_EARLIER : "refused by the receiving bank: " + code.name();
    }

    private static Map<PaymentId, ResolutionOutcome> zip(Map<PaymentId, Payment> payments, List<ResolutionOutcome> outcomes) {
        Check.that(outcomes.size() == payments.size(), "one resolution per payment");
        Map<PaymentId, ResolutionOutcome> byPayment = new HashMap<>();
        int i = 0;
        for (PaymentId id : payments.keySet()) {
            byPayment.put(id, outcomes.get(i++));
        }
        return byPayment;
    }

    /**
     * Parks payments clearing could not process (a bug, set aside by the adapter) for the expiry path,
     * as if their bank never answered: once their chains could have timed out, the expiry path voids
     * what is left and publishes what the ledger shows. Their reservation, if any, expires; nothing
     * moves; the payment still gets its one final state.
     */
    public Report parkForExpiry(List<ClearingRequest> requests) {
        if (requests.isEmpty()) {
            return Report.EMPTY;
        }
        Instant deadline = clock.instant().plusSeconds(settlement.pendingTimeoutSeconds()).plus(expiryMargin);
        unanswered.park(requests.stream().map(ClearingRequest::event).toList(), deadline);
        return new Report(requests.size(), 0, 0, 0, requests.size(), List.of());
    }

    /**
     * The expiry path's last word on payments it could not process (a bug, set aside by the adapter):
     * there is no later path to park them for, so each gets, from one {@link Settlement#inspect}, the
     * outcome its chain in the ledger shows. Posted: settled. Voided: for the cause the void legs
     * record. Open or absent: expired, nothing moved. Their deadline has passed, so a chain the
     * requests path reserved before parking has timed out and can no longer be posted; a chain the
     * expiry path reserved itself just now expires by the ledger's own timeout, and only the
     * requests path posts, which parked this payment and is done with it (the one exception: a crash
     * before that poll's commit redelivers it, the residual risk of a payment clearing fails on twice).
     * A chain holding another payment's transfers is an integrity alarm, never a refusal: no outcome.
     */
    public Report publishWhatTheLedgerHolds(List<ClearingRequest> requests) {
        Pass pass = Pass.over(requests);
        if (pass.batch().isEmpty()) {
            return Report.EMPTY;
        }
        List<ChainState> states = settlement.inspect(payments(pass.batch()));
        Check.that(states.size() == pass.batch().size(), "one chain state per payment");
        for (int i = 0; i < states.size(); i++) {
            ClearingRequest request = pass.batch().get(i);
            switch (states.get(i)) {
                case ChainState.Posted ignored -> pass.results().add(settled(request));
                case ChainState.Voided voided -> pass.results().add(voided(request, voided.cause(), ""));
                case ChainState.Open ignored -> pass.results().add(expired(request));
                case ChainState.Absent ignored -> pass.results().add(expired(request));
                case ChainState.Conflicting conflicting ->
                        pass.alarms().add(alarm(request, "the ledger holds " + conflicting.detail()));
            }
        }
        outcomes.publish(pass.results());
        return pass.report(0);
    }

    /**
     * Resolves payments the receiving bank never answered, once their pending chains have timed out:
     * one reservation request (chains reserved before answer exists), then one void for all of them, for
     * {@link VoidCause#UNANSWERED}. Expired or voided for that cause:
     * nothing moved, the payment expired. Voided earlier because the bank refused, or posted: an earlier
     * attempt (a redelivery that got an answer) resolved it, and the ledger's word wins.
     */
    public Report expire(List<ClearingRequest> requests) {
        Pass pass = Pass.over(requests);
        if (pass.batch().isEmpty()) {
            return Report.EMPTY;
        }
        if (instructions != null) {
            pass = withoutResolved(pass);
        }
        // Reserve first: a payment parked after clearing failed on it may never have been reserved. Voiding an
        // absent chain would answer pending_transfer_not_found, burn the void ids and leave it without an
        // outcome; reserved now and voided at once, it expires (or is rejected, if the ledger refuses it),
        // and any later redelivery reads the same from the ledger. A chain reserved before answers exists.
        List<ClearingRequest> reserved = reserve(pass);
        resolve(reserved, payments -> settlement.voidAll(payments, VoidCause.UNANSWERED), pass, i -> "");
        outcomes.publish(pass.results());
        return pass.report(0);
    }

    /**
     * Expires instructed payments (parked by id) once their chains could have timed out: one lookup drops those an
     * answer resolved (most of them), one reads the rest back from their pending legs, and one void, for
     * {@link VoidCause#UNANSWERED}, resolves them. The ledger arbitrates with a late answer as with any: a chain the
     * answer posted or voided first gets that outcome. A parked id whose chain the ledger does not hold reserved is an
     * integrity alarm (only reserved chains are instructed): logged, no outcome.
     */
    public Report expireInstructed(List<PaymentId> parked) {
        Check.that(instructions != null, "only participants' payments are instructed");
        List<PaymentId> ids = parked.stream().distinct().toList();
        if (ids.isEmpty()) {
            return Report.EMPTY;
        }
        List<Boolean> resolved = settlement.resolved(ids);
        List<PaymentId> open = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            if (!resolved.get(i)) {
                open.add(ids.get(i));
            }
        }
        List<Payment> payments = reservedInstructed(open);
        List<ResolutionOutcome> resolutions = payments.isEmpty() ? List.of()
                : settlement.voidAll(payments, VoidCause.UNANSWERED);
        Check.that(resolutions.size() == payments.size(), "one resolution outcome per payment");
        List<PaymentOutcome> results = new ArrayList<>(payments.size());
        for (int i = 0; i < payments.size(); i++) {
            Payment payment = payments.get(i);
            switch (resolutions.get(i)) {
                case ResolutionOutcome.Posted ignored -> results.add(settled(payment));
                case ResolutionOutcome.Voided voided -> results.add(voidedEarlier(payment, voided.cause()));
                case ResolutionOutcome.Expired ignored -> results.add(expired(payment));
                case ResolutionOutcome.IntegrityAlarm alarm -> log.error("INTEGRITY ALARM: payment {}: expiring, leg {}"
                        + " answered {}; no outcome is published", payment.id(), alarm.leg(), alarm.code());
            }
        }
        outcomes.publish(results);
        return Report.of(ids.size(), results, 0, List.of());
    }

    /**
     * The expiry path's last word on instructed payments it could not expire (a bug, their record set aside): like
     * {@link #publishWhatTheLedgerHolds}, each gets the outcome its chain shows, read back from its pending legs and
     * inspected (two lookups, no write). Posted: settled. Voided: for the cause its void legs record. Open: expired
     * (its deadline has passed: the chain lapses in the ledger, nothing moves). No reserved chain, or a chain holding
     * another payment's transfers: an integrity alarm, logged, no outcome.
     */
    public Report publishWhatTheLedgerHoldsFor(List<PaymentId> parked) {
        List<PaymentId> ids = parked.stream().distinct().toList();
        List<Payment> payments = reservedInstructed(ids);
        List<ChainState> states = payments.isEmpty() ? List.of() : settlement.inspect(payments);
        Check.that(states.size() == payments.size(), "one chain state per payment");
        List<PaymentOutcome> results = new ArrayList<>(payments.size());
        for (int i = 0; i < payments.size(); i++) {
            Payment payment = payments.get(i);
            switch (states.get(i)) {
                case ChainState.Posted ignored -> results.add(settled(payment));
                case ChainState.Voided voided -> results.add(voidedEarlier(payment, voided.cause()));
                case ChainState.Open ignored -> results.add(expired(payment));
                case ChainState.Absent ignored -> results.add(expired(payment));
                case ChainState.Conflicting conflicting -> log.error("INTEGRITY ALARM: payment {}: the ledger holds {};"
                        + " no outcome is published", payment.id(), conflicting.detail());
            }
        }
        outcomes.publish(results);
        return Report.of(ids.size(), results, 0, List.of());
    }

    /**
     * The instructed payments the ledger holds reserved, read back from their pending legs, in the order of
     * {@code ids}; an id without a reserved chain is an integrity alarm (only reserved chains are instructed): logged.
     */
    private List<Payment> reservedInstructed(List<PaymentId> ids) {
        Map<PaymentId, Payment> reserved = ids.isEmpty() ? Map.of() : settlement.reservedPayments(ids);
        List<Payment> payments = new ArrayList<>(reserved.size());
        for (PaymentId id : ids) {
            Payment payment = reserved.get(id);
            if (payment == null) {
                log.error("INTEGRITY ALARM: payment {}: instructed and parked, yet the ledger holds no reserved chain of it;"
                        + " no outcome is published", id);
                continue;
            }
            payments.add(payment);
        }
        return payments;
    }

    /** A chain voided before this path came to it: the outcome its void legs' cause records. */
    private PaymentOutcome voidedEarlier(Payment payment, VoidCause cause) {
        return switch (cause) {
            case RECEIVING_BANK_REFUSED -> rejected(payment, RejectionReason.RECEIVING_BANK_REFUSED, REFUSED_EARLIER);
            case UNANSWERED -> expired(payment);
        };
    }

    /**
     * With participants every instructed payment is parked, and most are answered long before their deadline: one
     * lookup finds the chains already posted or voided, whose outcome the answer path published, so the expiry
     * path voids only the rest (and spends no ledger write on the answered).
     */
    private Pass withoutResolved(Pass pass) {
        List<Boolean> resolved = settlement.resolved(payments(pass.batch()).stream().map(Payment::id).toList());
        List<ClearingRequest> open = new ArrayList<>(pass.batch().size());
        for (int i = 0; i < resolved.size(); i++) {
            if (!resolved.get(i)) {
                open.add(pass.batch().get(i));
            }
        }
        return Pass.over(open);
    }

    /** Reserves every chain of the pass; returns the reserved, and adds the refused and the alarms to the pass. */
    private List<ClearingRequest> reserve(Pass pass) {
        List<ClearingRequest> batch = pass.batch();
        List<ReservationOutcome> reservations = settlement.reserve(payments(batch));
        Check.that(reservations.size() == batch.size(), "one reservation outcome per payment");
        List<ClearingRequest> reserved = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            ClearingRequest request = batch.get(i);
            switch (reservations.get(i)) {
                case ReservationOutcome.Reserved fresh -> {
                    reserved.add(request);
                    if (fresh.earlier()) {
                        pass.reservedEarlier().add(request);
                    }
                }
                case ReservationOutcome.Refused refused ->
                        pass.results().add(rejected(request, reasonOf(refused.reason()), refused.code().name()));
                case ReservationOutcome.IntegrityAlarm alarm ->
                        pass.alarms().add(alarm(request, "reserving", alarm.leg(), alarm.code().name()));
            }
        }
        return reserved;
    }

    /**
     * Maps each payment's resolution to its one outcome. A chain voided by the refusal path is REJECTED
     * and one voided by the expiry path EXPIRED, whichever path asks, because the void legs record their
     * cause and the first void wins; {@code refusalOf} gives the bank's reason when this batch has it.
     */
    private void resolve(List<ClearingRequest> requests, Function<List<Payment>, List<ResolutionOutcome>> phase2,
            Pass pass, IntFunction<String> refusalOf) {
        if (requests.isEmpty()) {
            return;
        }
        List<ResolutionOutcome> resolutions = phase2.apply(payments(requests));
        List<PaymentOutcome> results = pass.results();
        Check.that(resolutions.size() == requests.size(), "one resolution outcome per payment");
        for (int i = 0; i < requests.size(); i++) {
            ClearingRequest request = requests.get(i);
            switch (resolutions.get(i)) {
                case ResolutionOutcome.Posted ignored -> results.add(settled(request));
                case ResolutionOutcome.Voided voided -> results.add(voided(request, voided.cause(), refusalOf.apply(i)));
                case ResolutionOutcome.Expired ignored -> results.add(expired(request));
                case ResolutionOutcome.IntegrityAlarm alarm ->
                        pass.alarms().add(alarm(request, "resolving", alarm.leg(), alarm.code().name()));
            }
        }
    }

    /** A voided chain's outcome, by the cause its void legs record; {@code refusal} is the bank's reason, if this batch has it. */
    private PaymentOutcome voided(ClearingRequest request, VoidCause cause, String refusal) {
        return switch (cause) {
            case RECEIVING_BANK_REFUSED -> rejected(request, RejectionReason.RECEIVING_BANK_REFUSED,
                    refusal.isEmpty() ? REFUSED_EARLIER : refusal);
            case UNANSWERED -> expired(request);
        };
    }

    private static Alarm alarm(ClearingRequest request, String action, int leg, String code) {
        return alarm(request, action + " leg " + leg + " answered " + code + ", and the ledger holds no chain of this payment's");
    }

    private static Alarm alarm(ClearingRequest request, String detail) {
        log.error("INTEGRITY ALARM: payment {}: {}; no outcome is published for this request", request.payment().id(), detail);
        return new Alarm(request, detail);
    }

    static RejectionReason reasonOf(ReservationOutcome.RefusalReason reason) {
        return switch (reason) {
            case INSUFFICIENT_FUNDS -> RejectionReason.INSUFFICIENT_FUNDS;
            case INSUFFICIENT_RESERVE -> RejectionReason.INSUFFICIENT_RESERVE;
            case UNKNOWN_ACCOUNT -> RejectionReason.UNKNOWN_ACCOUNT;
            case PREVIOUSLY_FAILED -> RejectionReason.PREVIOUSLY_FAILED;
            case RETURN_EXCEEDS_RETURNABLE -> RejectionReason.RETURN_EXCEEDS_RETURNABLE;
            case LEDGER_REFUSED -> RejectionReason.LEDGER_REFUSED;
        };
    }

    private PaymentSettled settled(Payment payment) {
        return new PaymentSettled(payment.id().toString(), payment.payer().toString(), payment.payee().toString(),
                payment.amountCentavos(), Instant.ofEpochMilli(payment.acceptedAtMillis()), clock.instant(),
                returnOf(payment), instructedEndToEndIds.get(payment.id()));
    }

    private PaymentRejected rejected(Payment payment, RejectionReason reason, String detail) {
        return new PaymentRejected(payment.id().toString(), payment.payer().toString(), payment.payee().toString(),
                payment.amountCentavos(), reason, detail, Instant.ofEpochMilli(payment.acceptedAtMillis()), clock.instant(),
                returnOf(payment), instructedEndToEndIds.get(payment.id()));
    }

    private PaymentExpired expired(Payment payment) {
        return new PaymentExpired(payment.id().toString(), payment.payer().toString(), payment.payee().toString(),
                payment.amountCentavos(), Instant.ofEpochMilli(payment.acceptedAtMillis()), clock.instant(),
                returnOf(payment), instructedEndToEndIds.get(payment.id()));
    }

    /**
     * What a payment read back from the ledger returns, for its outcome: the original and the reason the ledger keeps
     * (not the original's amount, which the return's legs do not hold: 0).
     */
    private static ReturnOf returnOf(Payment payment) {
        if (!payment.isReturn()) {
            return null;
        }
        ReturnReason reason = ReturnReason.ofNumber(payment.returnOf().reasonNumber()).orElseThrow(
                () -> new IllegalStateException("return " + payment.id() + " names reason number "
                        + payment.returnOf().reasonNumber() + ", which no return reason has"));
        return new ReturnOf(payment.returnOf().original().toString(), payment.returnOf().originalAmountCentavos(), reason);
    }

    private PaymentSettled settled(ClearingRequest request) {
        PaymentRequested event = request.event();
        return new PaymentSettled(event.paymentId(), event.payerAccountId(), event.payeeAccountId(),
                event.amountCentavos(), event.acceptedAt(), clock.instant(), event.returnOf(), event.endToEndId());
    }

    private PaymentRejected rejected(ClearingRequest request, RejectionReason reason, String detail) {
        PaymentRequested event = request.event();
        return new PaymentRejected(event.paymentId(), event.payerAccountId(), event.payeeAccountId(),
                event.amountCentavos(), reason, detail, event.acceptedAt(), clock.instant(), event.returnOf(),
                event.endToEndId());
    }

    private PaymentExpired expired(ClearingRequest request) {
        PaymentRequested event = request.event();
        return new PaymentExpired(event.paymentId(), event.payerAccountId(), event.payeeAccountId(),
                event.amountCentavos(), event.acceptedAt(), clock.instant(), event.returnOf(), event.endToEndId());
    }

    /**
     * Drops exact duplicates (the same payment delivered twice in one poll): they would only repeat
     * the same ledger requests. A different payment under the same id stays, and the ledger raises
     * the integrity alarm for it.
     */
    private static List<ClearingRequest> distinct(List<ClearingRequest> requests) {
        Map<Payment, ClearingRequest> unique = new LinkedHashMap<>();
        for (ClearingRequest request : requests) {
            unique.putIfAbsent(request.payment(), request);
        }
        return List.copyOf(unique.values());
    }

    private static List<Payment> payments(List<ClearingRequest> requests) {
        return requests.stream().map(ClearingRequest::payment).toList();
    }

    /**
     * One pass over a poll's distinct payments (clearing, or expiry): the outcomes it will publish and the
     * integrity alarms it raised, gathered phase by phase.
     */
    private record Pass(List<ClearingRequest> batch, List<PaymentOutcome> results, List<Alarm> alarms,
            Set<ClearingRequest> reservedEarlier) {

        static Pass over(List<ClearingRequest> requests) {
            List<ClearingRequest> batch = distinct(requests);
            return new Pass(batch, new ArrayList<>(batch.size()), new ArrayList<>(), new HashSet<>());
        }

        Report report(int unanswered) {
            return Report.of(batch.size(), results, unanswered, alarms);
        }
    }
}
