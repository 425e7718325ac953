package io.pagora.settlement.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.kernel.Id128;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The BCB id format: what is an id, what it tells, and the ids the switch makes. */
class PixIdTest {

    static final Instant AT = Instant.parse("2026-11-27T13:45:59Z");
    static final PaymentId PAYMENT = new PaymentId(new Id128(0x0195_0000_0000_0001L, 0x1234_5600L));

    @Test
    void anEndToEndIdTellsItsBankAndMinute() {
        PixId id = new PixId("E1234567820261127134512345678901");
        assertThat(id.kind()).isEqualTo(PixId.Kind.END_TO_END);
        assertThat(id.bank()).isEqualTo(new BankId(12_345_678));
        assertThat(id.minute()).isEqualTo(Instant.parse("2026-11-27T13:45:00Z"));
        assertThat(new PixId("D0000001120261127134500000000000").kind()).isEqualTo(PixId.Kind.RETURN);
    }

    @Test
    void malformedIdsAreNamedWithTheirFault() {
        assertThat(PixId.problem(null)).hasValueSatisfying(p -> assertThat(p).contains("32 characters"));
        assertThat(PixId.problem("E123")).hasValueSatisfying(p -> assertThat(p).contains("got 4"));
        assertThat(PixId.problem("X1234567820261127134512345678901"))
                .hasValueSatisfying(p -> assertThat(p).contains("E"));
        assertThat(PixId.problem("E12345678202611271345123456789-1"))
                .hasValueSatisfying(p -> assertThat(p).contains("letters"));
        assertThat(PixId.problem("E1234567A20261127134512345678901"))
                .hasValueSatisfying(p -> assertThat(p).contains("digits"));
        assertThat(PixId.problem("E1234567820261327134512345678901"))
                .as("month 13")
                .hasValueSatisfying(p -> assertThat(p).contains("valid UTC date"));
        assertThat(PixId.problem("E1234567820260230134512345678901"))
                .as("30 February")
                .isPresent();
        assertThat(PixId.problem("E1234567820261127246012345678901"))
                .as("24:60")
                .isPresent();
        assertThat(PixId.problem("E12345678202611271345123456789é1")).isPresent();
        assertThat(PixId.problem("D1234567820261127134512345678901", PixId.Kind.END_TO_END))
                .hasValueSatisfying(p -> assertThat(p).contains("must start with E"));
        assertThatThrownBy(() -> new PixId("E1")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aMadeIdIsWellFormedOfItsBankAndMinuteAndTheSameForTheSamePayment() {
        PixId made = PixId.generated(PixId.Kind.END_TO_END, new BankId(11), AT, PAYMENT);
        assertThat(PixId.problem(made.value())).isEmpty();
        assertThat(made.value()).startsWith("E00000011202611271345");
        assertThat(made.bank()).isEqualTo(new BankId(11));
        assertThat(PixId.generated(PixId.Kind.END_TO_END, new BankId(11), AT.plusSeconds(-59), PAYMENT))
                .isEqualTo(made);
        PaymentId next =
                new PaymentId(new Id128(PAYMENT.value().hi(), PAYMENT.value().lo() + 0x100));
        assertThat(PixId.generated(PixId.Kind.END_TO_END, new BankId(11), AT, next))
                .isNotEqualTo(made);
        assertThat(PixId.generated(PixId.Kind.RETURN, new BankId(11), AT, PAYMENT)
                        .value())
                .startsWith("D")
                .isNotEqualTo("D" + made.value().substring(1));
    }

    @Test
    void anIdIsUsableFromTheOldestKeptDayToAFewMinutesAhead() {
        PixId id = PixId.of(PixId.Kind.END_TO_END, new BankId(11), AT, "abcdefghijk");
        assertThat(id.timeProblem(AT.minusSeconds(3600), AT.plusSeconds(300))).isEmpty();
        assertThat(id.timeProblem(AT.minusSeconds(59), AT.plusSeconds(300)))
                .as("the same minute")
                .isEmpty();
        assertThat(id.timeProblem(AT.plusSeconds(60), AT.plusSeconds(300)))
                .hasValueSatisfying(p -> assertThat(p).contains("older"));
        assertThat(id.timeProblem(AT.minusSeconds(3600), AT.minusSeconds(3000)))
                .hasValueSatisfying(p -> assertThat(p).contains("future"));
    }
}
