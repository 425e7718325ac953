package io.pagora.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.events.participant.Answer;
import io.pagora.events.participant.AnswerBatch;
import io.pagora.events.participant.CautionaryHold;
import io.pagora.events.participant.InfractionReportNotice;
import io.pagora.events.participant.KeyClaimNotice;
import io.pagora.events.participant.LiquidityAlert;
import io.pagora.events.participant.MessageRecords;
import io.pagora.events.participant.ParticipantCodec;
import io.pagora.events.participant.ParticipantMessage;
import io.pagora.events.participant.PaymentConcluded;
import io.pagora.events.participant.PaymentInstruction;
import io.pagora.events.participant.RefusalCode;
import io.pagora.events.participant.StreamAnswer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The participant contracts as they travel: message records are JSON arrays that a stream's answer joins without
 * decoding them (docs/participants.md's {@code {"messages":[…]}}), ids name messages for good, answers are closed.
 */
class ParticipantContractsTest {

    static final String PAYMENT = "01a21a0c061daa909fd6699a6b441d00";
    static final Instant AT = Instant.parse("2026-11-26T22:52:00Z");

    @Test
    void recordsJoinedAsAStreamJoinsThemDecodeAsTheStreamsAnswer() {
        ParticipantMessage instruction = new PaymentInstruction(
                PaymentInstruction.idOf(PAYMENT),
                PAYMENT,
                "E2E",
                "0400000000a98ac70001a971ef7cc0aa",
                "040000000153158e0015ed855b22e6c1",
                1_000,
                AT,
                AT.plusSeconds(5));
        ParticipantMessage outcome = new PaymentConcluded(
                PaymentConcluded.idOf(PAYMENT, PaymentConcluded.Role.PAYEE),
                PAYMENT,
                PaymentConcluded.Role.PAYEE,
                "SETTLED",
                "",
                "a",
                "b",
                1_000,
                AT);
        byte[] first = MessageRecords.encode(List.of(instruction));
        byte[] second = MessageRecords.encode(List.of(outcome));
        String joined = "{\"messages\":[" + new String(first, 1, first.length - 2, StandardCharsets.UTF_8) + ","
                + new String(second, 1, second.length - 2, StandardCharsets.UTF_8) + "]}";

        assertThat(StreamAnswer.decode(joined.getBytes(StandardCharsets.UTF_8)).messages())
                .containsExactly(instruction, outcome);
        assertThat(instruction.id()).isEqualTo("instruction-" + PAYMENT);
        assertThat(outcome.id()).isEqualTo("outcome-" + PAYMENT + "-payee");
        assertThat(new String(first, StandardCharsets.UTF_8)).contains("\"type\":\"PaymentInstruction\"");
    }

    /** The hand-written record encoder writes exactly what Jackson writes for the same messages, whatever their text. */
    @Test
    void recordsAreWrittenByteForByteAsJacksonWritesThem() {
        tools.jackson.databind.ObjectWriter jackson = tools.jackson.databind.json.JsonMapper.builder()
                .build()
                .writerFor(new tools.jackson.core.type.TypeReference<List<ParticipantMessage>>() {});
        Instant withNanos = Instant.parse("2026-11-26T22:52:00.123456789Z");
        List<ParticipantMessage> messages = List.of(
                new PaymentInstruction(PaymentInstruction.idOf(PAYMENT), PAYMENT, null, "a", "b", 1, AT, withNanos),
                new PaymentInstruction(
                        "i",
                        PAYMENT,
                        "E\"quote\\back\n\t\r\b\f\u0001\u001f\u007f/ção €😀",
                        "a",
                        "b",
                        Long.MAX_VALUE,
                        withNanos,
                        Instant.EPOCH),
                new PaymentInstruction(
                        "r",
                        PAYMENT,
                        "D0000000120261127134500000000001",
                        "b",
                        "a",
                        7,
                        AT,
                        withNanos,
                        "01a21a0c061daa909fd6699a6b441c00",
                        "MD06"),
                new PaymentConcluded(
                        PaymentConcluded.idOf(PAYMENT, PaymentConcluded.Role.PAYER),
                        PAYMENT,
                        PaymentConcluded.Role.PAYER,
                        "REJECTED",
                        "INSUFFICIENT_FUNDS",
                        "a",
                        "b",
                        0,
                        AT),
                new PaymentConcluded("o", PAYMENT, null, null, null, null, null, -5, null),
                new PaymentConcluded(
                        "s",
                        PAYMENT,
                        PaymentConcluded.Role.PAYER,
                        "REJECTED",
                        "half pairs \ud800, \udc00 and \ud83d\ud83d\ude00 at the end \ud83d",
                        "\u0800\u07ff\u0080\uffff\ud7ff\ue000",
                        "b",
                        Long.MIN_VALUE,
                        Instant.parse("+10000-01-01T00:00:00.000100Z")),
                new PaymentConcluded(
                        "m", PAYMENT, null, null, null, null, null, 0, Instant.parse("0999-12-31T23:59:59.120Z")),
                new PaymentConcluded(
                        "e",
                        PAYMENT,
                        PaymentConcluded.Role.PAYEE,
                        "SETTLED",
                        "",
                        "a",
                        "b",
                        9,
                        AT,
                        "E0000000120261127134500000000001"),
                new KeyClaimNotice(
                        KeyClaimNotice.idOf("0b7c", "OPEN", "DONOR"),
                        null,
                        "0b7c",
                        "maria@example.com",
                        "PORTABILITY",
                        "DONOR",
                        "OPEN",
                        null,
                        withNanos,
                        AT),
                new KeyClaimNotice(
                        "k",
                        null,
                        "c",
                        "+5561\"ção",
                        "OWNERSHIP",
                        "CLAIMER",
                        "COMPLETED",
                        "DEADLINE",
                        null,
                        Instant.EPOCH),
                new LiquidityAlert(
                        LiquidityAlert.idOf("00000082", 1),
                        null,
                        "FELL_BELOW_LOW",
                        99_999,
                        100_000,
                        500_000,
                        withNanos),
                new LiquidityAlert("l", null, "CLEARED_BY_FUNDING", -1, 1, Long.MAX_VALUE, Instant.EPOCH),
                new InfractionReportNotice(
                        InfractionReportNotice.idOf("01a2", "OPEN", "PAYEE"),
                        PAYMENT,
                        "01a2",
                        "PAYEE",
                        "OPEN",
                        "FRAUD",
                        1_000,
                        700,
                        withNanos,
                        null,
                        AT),
                new InfractionReportNotice(
                        "r", null, null, null, "REJECTED", null, 0, Long.MIN_VALUE, null, "não é \"golpe\"", null),
                new CautionaryHold(
                        CautionaryHold.idOf("01a2", 3, "HELD"), PAYMENT, "01a2", "a", 2, 300, "HELD", withNanos, AT),
                new CautionaryHold("h", null, null, null, -1, 0, null, null, Instant.EPOCH));
        for (ParticipantMessage message : messages) {
            assertThat(new String(MessageRecords.encode(List.of(message)), StandardCharsets.UTF_8))
                    .isEqualTo(new String(jackson.writeValueAsBytes(List.of(message)), StandardCharsets.UTF_8));
        }
        assertThat(MessageRecords.encode(messages)).isEqualTo(jackson.writeValueAsBytes(messages));
        assertThat(MessageRecords.decode(MessageRecords.encode(messages))).isEqualTo(messages);
    }

    @Test
    void aRecordHoldsOneToFiveHundredMessages() {
        assertThatThrownBy(() -> MessageRecords.encode(List.of())).isInstanceOf(IllegalArgumentException.class);
        ParticipantMessage message =
                new PaymentConcluded("x", PAYMENT, PaymentConcluded.Role.PAYER, "EXPIRED", "", "a", "b", 1, AT);
        assertThat(MessageRecords.decode(
                        MessageRecords.encode(Collections.nCopies(MessageRecords.MESSAGES_MAX, message))))
                .hasSize(MessageRecords.MESSAGES_MAX);
        assertThatThrownBy(() -> MessageRecords.encode(Collections.nCopies(MessageRecords.MESSAGES_MAX + 1, message)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anAnswerAcceptsWithoutAReasonOrRefusesWithOne() {
        assertThatThrownBy(() -> new Answer(PAYMENT, true, RefusalCode.AC03))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Answer(PAYMENT, false, null)).isInstanceOf(IllegalArgumentException.class);
        AnswerBatch batch =
                new AnswerBatch("call-1", "10001111", List.of(new Answer(PAYMENT, false, RefusalCode.AM02)));
        assertThat(ParticipantCodec.decode(ParticipantCodec.encode(batch), AnswerBatch.class))
                .isEqualTo(batch);
        assertThatThrownBy(() -> ParticipantCodec.decode(
                        "{\"requestId\":\"c\",\"bank\":\"1\",\"answers\":[]}".getBytes(StandardCharsets.UTF_8),
                        AnswerBatch.class))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void anAnswerCarriesItsEndToEndIdAndOneWrittenWithoutItStillReads() {
        AnswerBatch batch = new AnswerBatch(
                "call-1", "10001111", List.of(new Answer(PAYMENT, true, null, "E10001111202611262252Xq3vR8sT1aB")));
        assertThat(ParticipantCodec.decode(ParticipantCodec.encode(batch), AnswerBatch.class)
                        .answers()
                        .getFirst()
                        .endToEndId())
                .isEqualTo("E10001111202611262252Xq3vR8sT1aB");
        AnswerBatch older = ParticipantCodec.decode(
                ("{\"requestId\":\"c\",\"bank\":\"1\",\"answers\":[{\"paymentId\":\"" + PAYMENT
                                + "\",\"accept\":false,\"refusal\":\"AC03\"}]}")
                        .getBytes(StandardCharsets.UTF_8),
                AnswerBatch.class);
        assertThat(older.answers()).containsExactly(new Answer(PAYMENT, false, RefusalCode.AC03));
    }
}
