package io.pagora.clearing.adapter.kafka;

import io.pagora.clearing.application.participants.Instructions;
import io.pagora.events.PaymentExpired;
import io.pagora.events.PaymentOutcome;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentRequested;
import io.pagora.events.PaymentSettled;
import io.pagora.events.RejectionReason;
import io.pagora.events.Topics;
import io.pagora.events.participant.MessageRecords;
import io.pagora.events.participant.ParticipantMessage;
import io.pagora.events.participant.PaymentConcluded;
import io.pagora.events.participant.PaymentInstruction;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Turns clearing's facts into the records of {@link Topics#PARTICIPANT_MESSAGES}: messages grouped by recipient
 * bank, at most {@link MessageRecords#MESSAGES_MAX} per record, keyed by the recipient's ISPB (so each bank's
 * messages keep their order on one partition). A poll of thousands of payments costs a few records per bank.
 */
public final class ParticipantMessages {

    private ParticipantMessages() {}

    /** One instruction per payment, to its payee's bank; a return's names what it returns and why. */
    public static List<ProducerRecord<String, byte[]>> instructions(List<Instructions.Instruction> instructions) {
        Map<String, List<ParticipantMessage>> byBank = new LinkedHashMap<>();
        for (Instructions.Instruction instruction : instructions) {
            PaymentRequested payment = instruction.payment();
            byBank.computeIfAbsent(bankOf(payment.payeeAccountId()), bank -> new ArrayList<>())
                    .add(new PaymentInstruction(
                            PaymentInstruction.idOf(payment.paymentId()),
                            payment.paymentId(),
                            payment.endToEndId(),
                            payment.payerAccountId(),
                            payment.payeeAccountId(),
                            payment.amountCentavos(),
                            payment.acceptedAt(),
                            instruction.answerBy(),
                            payment.returnOf() == null
                                    ? null
                                    : payment.returnOf().originalPaymentId(),
                            payment.returnOf() == null
                                    ? null
                                    : payment.returnOf().reason().name()));
        }
        return records(byBank);
    }

    /**
     * Each outcome to the payer's bank, and to the payee's bank when it was instructed (settled, refused by it, or
     * expired waiting for it); a payment the ledger refused at reservation never reached the payee's bank, nor did
     * one in {@code payerOnly} (its chain lapsed before its instruction was issued).
     */
    public static List<ProducerRecord<String, byte[]>> outcomes(List<PaymentOutcome> outcomes, Set<String> payerOnly) {
        Map<String, List<ParticipantMessage>> byBank = new LinkedHashMap<>();
        for (PaymentOutcome outcome : outcomes) {
            byBank.computeIfAbsent(bankOf(outcome.payerAccountId()), bank -> new ArrayList<>())
                    .add(concluded(outcome, PaymentConcluded.Role.PAYER));
            if (reachedPayeeBank(outcome) && !payerOnly.contains(outcome.paymentId())) {
                byBank.computeIfAbsent(bankOf(outcome.payeeAccountId()), bank -> new ArrayList<>())
                        .add(concluded(outcome, PaymentConcluded.Role.PAYEE));
            }
        }
        return records(byBank);
    }

    private static boolean reachedPayeeBank(PaymentOutcome outcome) {
        return switch (outcome) {
            case PaymentSettled ignored -> true;
            case PaymentExpired ignored -> true;
            case PaymentRejected rejected -> rejected.reason() == RejectionReason.RECEIVING_BANK_REFUSED;
        };
    }

    private static PaymentConcluded concluded(PaymentOutcome outcome, PaymentConcluded.Role role) {
        String reason =
                outcome instanceof PaymentRejected rejected ? rejected.reason().name() : "";
        return new PaymentConcluded(
                PaymentConcluded.idOf(outcome.paymentId(), role),
                outcome.paymentId(),
                role,
                outcome.status(),
                reason,
                outcome.payerAccountId(),
                outcome.payeeAccountId(),
                outcome.amountCentavos(),
                outcome.occurredAt(),
                outcome.endToEndId());
    }

    /** The ISPB (8 digits) of a customer account's bank: the key of that bank's messages. */
    static String bankOf(String customerAccountId) {
        return ChartOfAccounts.bankOf(Id128.parse(customerAccountId))
                .map(BankId::toString)
                .orElseThrow(() -> new IllegalArgumentException("not a bank's account: " + customerAccountId));
    }

    private static List<ProducerRecord<String, byte[]>> records(Map<String, List<ParticipantMessage>> byBank) {
        List<ProducerRecord<String, byte[]>> records = new ArrayList<>();
        for (MessageRecords.Sliced sliced : MessageRecords.sliced(byBank)) {
            ProducerRecord<String, byte[]> record =
                    new ProducerRecord<>(Topics.PARTICIPANT_MESSAGES, sliced.bank(), sliced.value());
            record.headers()
                    .add(
                            MessageRecords.COUNT_HEADER,
                            Integer.toString(sliced.count()).getBytes(StandardCharsets.US_ASCII));
            records.add(record);
        }
        return records;
    }
}
