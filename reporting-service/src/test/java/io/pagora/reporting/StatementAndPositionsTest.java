package io.pagora.reporting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.pagora.events.PaymentEvent;
import io.pagora.events.RejectionReason;
import io.pagora.reporting.testsupport.EventPublisher;
import io.pagora.reporting.testsupport.Payments;
import io.pagora.reporting.testsupport.Payments.Payment;
import io.pagora.reporting.testsupport.ReportingIntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Proves the two aggregate queries over projected events: the account statement's keyset pagination
 * walks every settled movement exactly once, newest first, with page boundaries inside groups of equal
 * settlement times (ties broken by payment id, then direction), including an account paying itself and
 * while newer payments settle during the walk; and a bank's daily positions sum exactly the SETTLED
 * interbank payments of that UTC day (both day boundaries tested), with on-us payments apart.
 */
class StatementAndPositionsTest extends ReportingIntegrationTest {

    private static final Duration PROJECTED_WITHIN = Duration.ofSeconds(30);

    EventPublisher publisher;

    @BeforeEach
    void clients() {
        publisher = new EventPublisher(bootstrapServers);
    }

    @AfterEach
    void close() {
        publisher.close();
    }

    /** One expected statement line: the keyset order is (settledAt, paymentId, direction), descending. */
    record Line(Instant settledAt, String paymentId, String direction) {
        static final Comparator<Line> NEWEST_FIRST = Comparator.comparing(Line::settledAt)
                .thenComparing(Line::paymentId)
                .thenComparing(Line::direction)
                .reversed();
    }

    @Test
    void statementPagesWalkEverySettledMovementOnceAcrossEqualTimestamps() {
        String account = Payments.customer(7);
        String other = Payments.customer(8);
        Instant base = Instant.parse("2030-01-10T12:00:00.123456Z");
        List<Line> expected = new ArrayList<>();
        List<PaymentEvent> events = new ArrayList<>();
        // 30 settled payments over 6 instants: 5 share each settlement time, half debits, half credits.
        for (int i = 0; i < 30; i++) {
            Instant settledAt = base.plusSeconds(i / 5);
            boolean debit = i % 2 == 0;
            Payment payment =
                    debit ? Payments.between(account, other, 100 + i) : Payments.between(other, account, 100 + i);
            events.add(payment.requested());
            events.add(payment.settled(settledAt));
            expected.add(new Line(settledAt, payment.paymentId(), debit ? "DEBIT" : "CREDIT"));
        }
        // An account paying itself: two lines that differ only by direction, at a shared instant.
        Payment self = Payments.between(account, account, 55);
        events.add(self.settled(base.plusSeconds(2)));
        expected.add(new Line(base.plusSeconds(2), self.paymentId(), "DEBIT"));
        expected.add(new Line(base.plusSeconds(2), self.paymentId(), "CREDIT"));
        // Not movements: rejected, expired, still accepted.
        List<Payment> notMovements = List.of(
                Payments.between(account, other, 9),
                Payments.between(other, account, 9),
                Payments.between(account, other, 9));
        events.add(notMovements.get(0).rejected(RejectionReason.INSUFFICIENT_FUNDS));
        events.add(notMovements.get(1).expired());
        events.add(notMovements.get(2).requested());
        publisher.publish(events.toArray(PaymentEvent[]::new));
        expected.sort(Line.NEWEST_FIRST);

        await().atMost(PROJECTED_WITHIN)
                .untilAsserted(() -> assertThat(bankOf(account)
                                .json("/accounts/" + account + "/statement?limit=500")
                                .get("entries"))
                        .hasSize(32));
        for (Payment payment : notMovements) {
            await().atMost(PROJECTED_WITHIN)
                    .untilAsserted(() -> assertThat(bankOf(payment.payer())
                                    .get("/payments/" + payment.paymentId())
                                    .status())
                            .isEqualTo(200));
        }

        assertThat(walk(account, 500, null)).containsExactlyElementsOf(expected);
        assertThat(walk(account, 1, null)).containsExactlyElementsOf(expected);

        // Limit 7 puts page boundaries inside groups of 5 or 6 lines with equal times; a payment settling
        // newer than the cursor during the walk belongs to the first page, not to a later one.
        Payment newer = Payments.between(other, account, 77);
        List<Line> walked = walk(account, 7, () -> {
            publisher.publish(newer.settled(base.plusSeconds(3600)));
            await().atMost(PROJECTED_WITHIN)
                    .untilAsserted(() -> assertThat(bankOf(newer.payer())
                                    .get("/payments/" + newer.paymentId())
                                    .status())
                            .isEqualTo(200));
        });
        assertThat(walked).containsExactlyElementsOf(expected);
        assertThat(walk(account, 7, null).getFirst().paymentId()).isEqualTo(newer.paymentId());

        JsonNode firstPage = bankOf(account).json("/accounts/" + account + "/statement?limit=3");
        assertThat(firstPage.get("order").asString()).isEqualTo("NEWEST_FIRST");
        assertThat(firstPage.get("limit").asInt()).isEqualTo(3);
        assertThat(firstPage.get("entries")).hasSize(3);
        JsonNode line = firstPage.get("entries").get(0);
        assertThat(line.get("direction").asString()).isEqualTo("CREDIT");
        assertThat(line.get("amountCentavos").asLong()).isEqualTo(77);
        assertThat(line.get("signedAmountCentavos").asLong()).isEqualTo(77);
        assertThat(line.get("counterpartyAccountId").asString()).isEqualTo(other);
        assertThat(Instant.parse(line.get("settledAt").asString())).isEqualTo(base.plusSeconds(3600));

        JsonNode unknown = bank(7).json("/accounts/" + Payments.customer(7) + "/statement");
        assertThat(unknown.get("entries")).isEmpty();
        assertThat(unknown.get("next").isNull())
                .as("next is present and null on the last page")
                .isTrue();
    }

    @Test
    void positionsSumTheSettledInterbankPaymentsOfOneUtcDay() {
        int x = 10;
        int y = 20;
        int z = 30;
        LocalDate day = LocalDate.parse("2031-05-17");
        Instant start = day.atStartOfDay().toInstant(ZoneOffset.UTC);
        Instant end = start.plus(Duration.ofDays(1));
        String xA = Payments.customer(x);
        String xB = Payments.customer(x);
        String yA = Payments.customer(y);
        String zA = Payments.customer(z);
        List<PaymentEvent> events = new ArrayList<>();
        events.add(Payments.between(xA, yA, 1_000).settled(start)); // X sent, first instant
        events.add(Payments.between(xB, zA, 2_500).settled(start.plusSeconds(12 * 3600))); // X sent
        events.add(Payments.between(yA, xA, 700).settled(end.minusNanos(1_000))); // X received, last micro
        events.add(Payments.between(zA, xB, 300).settled(start.plusSeconds(8 * 3600))); // X received
        events.add(Payments.between(xA, xB, 5_000).settled(start.plusSeconds(10 * 3600))); // X on-us
        events.add(Payments.between(xA, yA, 9_999).settled(start.minusNanos(1_000))); // the day before
        events.add(Payments.between(yA, xA, 8_888).settled(end)); // the day after
        events.add(Payments.between(xA, yA, 4_444).rejected(RejectionReason.INSUFFICIENT_FUNDS)); // not settled
        events.add(Payments.between(yA, xA, 3_333).expired()); // not settled
        events.add(Payments.between(xA, zA, 2_222).requested()); // not final
        publisher.publish(events.toArray(PaymentEvent[]::new));
        await().atMost(PROJECTED_WITHIN)
                .untilAsserted(() -> assertThat(operator()
                                .json("/stats")
                                .get("counts")
                                .get("SETTLED")
                                .asLong())
                        .isGreaterThanOrEqualTo(7));
        await().atMost(PROJECTED_WITHIN)
                .untilAsserted(
                        () -> assertThat(operator().json("/stats").get("total").asLong())
                                .isGreaterThanOrEqualTo(10));

        JsonNode bankX = bank(x).json("/banks/00000010/positions?date=2031-05-17");
        assertThat(bankX.get("ispb").asString()).isEqualTo("00000010");
        assertThat(bankX.get("date").asString()).isEqualTo("2031-05-17");
        assertThat(bankX.get("sentCentavos").asLong()).isEqualTo(3_500);
        assertThat(bankX.get("sentCount").asLong()).isEqualTo(2);
        assertThat(bankX.get("receivedCentavos").asLong()).isEqualTo(1_000);
        assertThat(bankX.get("receivedCount").asLong()).isEqualTo(2);
        assertThat(bankX.get("netCentavos").asLong()).isEqualTo(-2_500);
        assertThat(bankX.get("onUsCentavos").asLong()).isEqualTo(5_000);
        assertThat(bankX.get("onUsCount").asLong()).isEqualTo(1);

        JsonNode bankY = bank(y).json("/banks/00000020/positions?date=2031-05-17");
        assertThat(bankY.get("sentCentavos").asLong()).isEqualTo(700);
        assertThat(bankY.get("receivedCentavos").asLong()).isEqualTo(1_000);
        assertThat(bankY.get("netCentavos").asLong()).isEqualTo(300);
        assertThat(bankY.get("onUsCount").asLong()).isZero();

        JsonNode dayBefore = bank(x).json("/banks/00000010/positions?date=2031-05-16");
        assertThat(dayBefore.get("sentCentavos").asLong()).isEqualTo(9_999);
        JsonNode dayAfter = bank(x).json("/banks/00000010/positions?date=2031-05-18");
        assertThat(dayAfter.get("receivedCentavos").asLong()).isEqualTo(8_888);

        // The sum over all banks of the day's nets is zero: interbank money only moves between reserves.
        long netSum = 0;
        for (String ispb : List.of("00000010", "00000020", "00000030")) {
            netSum += operator()
                    .json("/banks/" + ispb + "/positions?date=2031-05-17")
                    .get("netCentavos")
                    .asLong();
        }
        assertThat(netSum).isZero();
    }

    @Test
    void listingsByStatusFindEachPaymentOfTheBankUnderItsOneStatus() {
        int x = 50;
        String xA = Payments.customer(x);
        String other = Payments.customer(60);
        Payment settled = Payments.between(xA, other, 101);
        Payment received = Payments.between(other, xA, 102);
        Payment rejected = Payments.between(xA, other, 103);
        Payment expired = Payments.between(other, xA, 104);
        Payment inFlight = Payments.between(xA, other, 105);
        Payment ofAnotherBank = Payments.between(other, Payments.customer(70), 106);
        publisher.publish(
                settled.requested(),
                received.requested(),
                rejected.requested(),
                expired.requested(),
                inFlight.requested(),
                ofAnotherBank.requested());
        await().atMost(PROJECTED_WITHIN)
                .untilAsserted(() -> assertThat(listed(x, "accepted"))
                        .containsExactly(
                                inFlight.paymentId(),
                                expired.paymentId(),
                                rejected.paymentId(),
                                received.paymentId(),
                                settled.paymentId()));
        await().atMost(PROJECTED_WITHIN)
                .untilAsserted(() -> assertThat(listed(70, "accepted")).containsExactly(ofAnotherBank.paymentId()));
        // Finalized after their requests (an UPDATE of the row), one of them twice (a redelivery), one by its outcome
        // only.
        Payment rejectedAlone = Payments.between(xA, other, 107);
        publisher.publish(
                settled.settled(),
                received.settled(),
                rejected.rejected(RejectionReason.INSUFFICIENT_FUNDS),
                expired.expired(),
                ofAnotherBank.rejected(RejectionReason.INSUFFICIENT_FUNDS),
                rejectedAlone.rejected(RejectionReason.UNKNOWN_ACCOUNT));
        publisher.publish(rejected.rejected(RejectionReason.INSUFFICIENT_FUNDS));
        await().atMost(PROJECTED_WITHIN)
                .untilAsserted(() -> assertThat(bankOf(rejectedAlone.payer())
                                .get("/payments/" + rejectedAlone.paymentId())
                                .status())
                        .isEqualTo(200));
        await().atMost(PROJECTED_WITHIN)
                .untilAsserted(() -> assertThat(listed(x, "rejected"))
                        .containsExactly(rejectedAlone.paymentId(), rejected.paymentId()));

        assertThat(listed(x, "settled")).containsExactly(received.paymentId(), settled.paymentId());
        assertThat(listed(x, "expired")).containsExactly(expired.paymentId());
        assertThat(listed(x, "accepted")).containsExactly(inFlight.paymentId());
        assertThat(listed(x, null))
                .containsExactly(
                        rejectedAlone.paymentId(),
                        inFlight.paymentId(),
                        expired.paymentId(),
                        rejected.paymentId(),
                        received.paymentId(),
                        settled.paymentId());
        assertThat(listed(70, "rejected")).containsExactly(ofAnotherBank.paymentId());
    }

    /** The ids of a bank's payments of one status (or all, if null), newest first, as the bank lists them. */
    private List<String> listed(int ispb, String status) {
        JsonNode page = bank(ispb).json("/payments?limit=100" + (status == null ? "" : "&status=" + status));
        List<String> ids = new ArrayList<>();
        page.get("payments").forEach(payment -> ids.add(payment.get("paymentId").asString()));
        return ids;
    }

    @Test
    void positionsDefaultToTodayUtc() {
        Payment payment = Payments.between(Payments.customer(40), Payments.customer(41), 1_234);
        Instant now = Instant.now();
        publisher.publish(payment.settled(now));
        await().atMost(PROJECTED_WITHIN)
                .untilAsserted(() -> assertThat(bankOf(payment.payer())
                                .get("/payments/" + payment.paymentId())
                                .status())
                        .isEqualTo(200));
        JsonNode today = bank(40).json("/banks/00000040/positions");
        if (today.get("date")
                .asString()
                .equals(LocalDate.ofInstant(now, ZoneOffset.UTC).toString())) {
            assertThat(today.get("sentCentavos").asLong()).isEqualTo(1_234);
        }
    }

    /**
     * Walks the statement page by page, checking each page's shape, and returns all lines in order.
     *
     * @param afterFirstPage run once after the first page (to change the data during the walk), or null
     */
    private List<Line> walk(String account, int limit, Runnable afterFirstPage) {
        List<Line> lines = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = bankOf(account)
                    .json("/accounts/" + account + "/statement?limit=" + limit
                            + (cursor == null ? "" : "&after=" + cursor));
            pages++;
            assertThat(page.get("entries").size()).isLessThanOrEqualTo(limit);
            for (JsonNode entry : page.get("entries")) {
                Line line = new Line(
                        Instant.parse(entry.get("settledAt").asString()),
                        entry.get("paymentId").asString(),
                        entry.get("direction").asString());
                assertThat(seen.add(line.paymentId() + line.direction()))
                        .as("no line twice: %s", line)
                        .isTrue();
                lines.add(line);
            }
            JsonNode next = page.get("next");
            cursor = next.isNull() ? null : next.asString();
            if (cursor != null) {
                assertThat(page.get("entries").size())
                        .as("only the last page is short")
                        .isEqualTo(limit);
            }
            if (pages == 1 && afterFirstPage != null) {
                afterFirstPage.run();
            }
            assertThat(pages).as("the walk ends").isLessThan(1_000);
        } while (cursor != null);
        return lines;
    }
}
