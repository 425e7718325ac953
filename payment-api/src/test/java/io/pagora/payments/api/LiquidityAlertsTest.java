package io.pagora.payments.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.TransferResult;
import io.pagora.payments.api.testsupport.Participants;
import io.pagora.payments.api.testsupport.PaymentApiIntegrationTest;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.TransferCode;
import io.pagora.testing.Http;
import io.pagora.testing.ledger.MoneyInvariants;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.test.context.TestPropertySource;

/**
 * Liquidity alerts over HTTPS against payment-api on real PostgreSQL and Kafka: a bank sets its watermarks, its
 * reserve falls below the low one and the bank reads one alert on its stream, however long it stays there; it
 * recovers above the high one, falls again, and the operator's funding clears the alert. The metrics say the same;
 * other banks and bad input are refused and change nothing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestPropertySource(properties = "pagora.liquidity.read-interval=200ms")
class LiquidityAlertsTest extends PaymentApiIntegrationTest {

    static final int BANK = 91;
    static final int OTHER = 92;
    static final Pattern ALERT = Pattern.compile("\\{\"type\":\"LiquidityAlert\"[^}]*}");
    static final Duration ROUNDS_WAIT = Duration.ofSeconds(20);

    final AtomicLong transfers = new AtomicLong(1);

    @Test
    void aBankIsAlertedOnceBelowItsLowWatermarkUntilItRecoversOrIsFunded() throws InterruptedException {
        Participants participants = new Participants(port);
        participants.registerBank(BANK, "Banco Noventa e Um");
        participants.registerBank(OTHER, "Banco Noventa e Dois");
        participants.fundReserve(BANK, 500_000);
        participants.fundReserve(OTHER, 500_000);
        Http bank = participants.bank(BANK);

        Http.Response unset = bank.get("/banks/91/liquidity-watermarks");
        assertThat(unset.status()).as("%s", unset).isEqualTo(200);
        assertThat(unset.json().path("availableCentavos").asLong()).isEqualTo(500_000);
        assertThat(unset.json().path("state").isNull()).isTrue();

        Http.Response set =
                setWatermarks(bank, 91, "{\"lowWatermarkCentavos\":100000,\"highWatermarkCentavos\":300000}");
        assertThat(set.status()).as("%s", set).isEqualTo(200);
        assertThat(set.json().path("state").asString()).isEqualTo("ARMED");
        assertThat(set.json().path("lowWatermarkCentavos").asLong()).isEqualTo(100_000);

        StreamReader stream = new StreamReader(bank);
        move(BANK, OTHER, 450_000);
        List<String> alerts = stream.alertsUntil(1);
        assertThat(alerts.getFirst())
                .contains("\"id\":\"liquidity-00000091-1\"")
                .contains("\"crossing\":\"FELL_BELOW_LOW\"")
                .contains("\"availableCentavos\":50000")
                .contains("\"lowWatermarkCentavos\":100000")
                .contains("\"highWatermarkCentavos\":300000");
        assertThat(metric(participants, "pagora_liquidity_alerted{", "bank=\"00000091\""))
                .isEqualTo(1.0);

        // Hovering around the low watermark: no alert storm.
        move(OTHER, BANK, 80_000);
        move(BANK, OTHER, 80_000);
        move(OTHER, BANK, 80_000);
        Thread.sleep(1_000);
        assertThat(bank.get("/banks/91/liquidity-watermarks")
                        .json()
                        .path("crossings")
                        .asLong())
                .isEqualTo(1);

        move(OTHER, BANK, 300_000); // 430,000: above the high watermark
        assertThat(stream.alertsUntil(2).get(1)).contains("\"crossing\":\"RECOVERED_ABOVE_HIGH\"");
        assertThat(metric(participants, "pagora_liquidity_alerted{", "bank=\"00000091\""))
                .isEqualTo(0.0);

        move(BANK, OTHER, 400_000); // 30,000
        assertThat(stream.alertsUntil(3).get(2)).contains("\"crossing\":\"FELL_BELOW_LOW\"");
        participants.fundReserve(BANK, 100_000); // 130,000: back above the low watermark, below the high one
        assertThat(stream.alertsUntil(4).get(3))
                .contains("\"id\":\"liquidity-00000091-4\"")
                .contains("\"crossing\":\"CLEARED_BY_FUNDING\"")
                .contains("\"availableCentavos\":130000");
        assertThat(stream.alertsUntil(4)).as("each crossing told once").hasSize(4);
        assertThat(metric(participants, "pagora_liquidity_crossings_total{", "crossing=\"FELL_BELOW_LOW\""))
                .isEqualTo(2.0);

        MoneyInvariants.checkNothingPending(ledger, participants.accounts(), "liquidity");
    }

    @Test
    void otherBanksAndBadWatermarksAreRefusedAndChangeNothing() {
        Participants participants = new Participants(port);
        participants.registerBank(93, "Banco Noventa e Tres");
        participants.registerBank(94, "Banco Noventa e Quatro");
        String good = "{\"lowWatermarkCentavos\":100,\"highWatermarkCentavos\":200}";

        Http.Response foreign = setWatermarks(participants.bank(94), 93, good);
        assertThat(foreign.status()).isEqualTo(404);
        assertThat(foreign.problemType()).isEqualTo("bank-not-found");
        assertThat(participants.bank(94).get("/banks/93/liquidity-watermarks").problemType())
                .isEqualTo("bank-not-found");
        assertThat(setWatermarks(participants.operator(), 95, good).problemType())
                .as("unregistered")
                .isEqualTo("bank-not-found");

        Http.Response inverted = setWatermarks(
                participants.bank(93), 93, "{\"lowWatermarkCentavos\":200,\"highWatermarkCentavos\":200}");
        assertThat(inverted.status()).as("%s", inverted).isEqualTo(422);
        assertThat(inverted.problemType()).isEqualTo("watermarks-inverted");
        for (String bad : List.of(
                "{\"lowWatermarkCentavos\":0,\"highWatermarkCentavos\":200}",
                "{\"lowWatermarkCentavos\":100}",
                "{\"lowWatermarkCentavos\":100,\"highWatermarkCentavos\":1000000000000001}",
                "{\"lowWatermarkCentavos\":\"100\",\"highWatermarkCentavos\":200}",
                "[]")) {
            Http.Response refused = setWatermarks(participants.bank(93), 93, bad);
            assertThat(refused.status()).as("%s: %s", bad, refused).isEqualTo(400);
            assertThat(refused.contentType()).startsWith("application/problem+json");
        }
        assertThat(participants
                        .bank(93)
                        .get("/banks/93/liquidity-watermarks")
                        .json()
                        .path("state")
                        .isNull())
                .isTrue();
        Http.Response byOperator = setWatermarks(participants.operator(), 93, good);
        assertThat(byOperator.status()).as("%s", byOperator).isEqualTo(200);
        assertThat(participants
                        .bank(93)
                        .get("/banks/93/liquidity-watermarks")
                        .json()
                        .path("highWatermarkCentavos")
                        .asLong())
                .isEqualTo(200);
    }

    private static Http.Response setWatermarks(Http client, int ispb, String body) {
        return client.send(
                "/banks/" + ispb + "/liquidity-watermarks",
                "PUT",
                HttpRequest.BodyPublishers.ofString(body),
                "application/json");
    }

    /** A payment's reserve leg, as clearing posts it. */
    private void move(int from, int to, long centavos) {
        TransferResult result = ledger.createTransfers(List.of(NewTransfer.posted(
                        new Id128(0x4c51, transfers.getAndIncrement()),
                        ChartOfAccounts.reserve(new BankId(from)),
                        ChartOfAccounts.reserve(new BankId(to)),
                        centavos,
                        ChartOfAccounts.LEDGER_BRL,
                        TransferCode.RESERVE_TO_RESERVE,
                        Id128.ZERO)))
                .getFirst();
        assertThat(result).isEqualTo(TransferResult.OK);
    }

    /** The value of the one series of {@code name} whose labels contain {@code label}. */
    private static double metric(Participants participants, String name, String label) throws InterruptedException {
        long deadline = System.nanoTime() + ROUNDS_WAIT.toNanos();
        String line = null;
        while (System.nanoTime() < deadline) {
            line = participants
                    .operator()
                    .get("/actuator/prometheus")
                    .body()
                    .lines()
                    .filter(l -> l.startsWith(name) && l.contains(label))
                    .findFirst()
                    .orElse(null);
            if (line != null) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no series " + name + " with " + label);
    }

    /** One bank's stream, read from its start; its liquidity alerts in order. */
    static final class StreamReader {
        final Http bank;
        final List<String> alerts = new ArrayList<>();
        String next = "/participants/00000091/stream/start";

        StreamReader(Http bank) {
            this.bank = bank;
        }

        List<String> alertsUntil(int count) {
            long deadline = System.nanoTime() + ROUNDS_WAIT.toNanos();
            while (alerts.size() < count && System.nanoTime() < deadline) {
                Http.Response pulled = bank.get(next);
                assertThat(pulled.status()).as("%s", pulled).isIn(200, 204);
                Matcher matcher = ALERT.matcher(pulled.body());
                while (matcher.find()) {
                    alerts.add(matcher.group());
                }
                next = pulled.header("PI-Pull-Next");
            }
            assertThat(alerts).as("alerts on the stream").hasSizeGreaterThanOrEqualTo(count);
            return alerts;
        }
    }
}
