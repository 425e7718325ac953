package io.pagora.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.e2e.support.Books;
import io.pagora.e2e.support.Books.View;
import io.pagora.e2e.support.Pagora;
import io.pagora.e2e.support.Participants;
import io.pagora.e2e.support.Participants.Customer;
import io.pagora.e2e.support.PaymentBook;
import io.pagora.e2e.support.PaymentBook.Order;
import io.pagora.e2e.support.Quiescence;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.ServerBacked;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Proves that reporting-service's online reconciliation, on the whole pipeline (payment-api → Kafka → clearing and
 * the ledger → Kafka → the read model), judges every accepted payment — settled, refused by the ledger, refused by the
 * receiving bank, expired — exactly once, and account balances (the banks' reserves and transits, the customers with
 * settled payments) against the ledger, and finds no mismatch where there is none; on the PostgreSQL ledger, and on TigerBeetle when {@code TIGERBEETLE_BIN} names one.
 * (That it finds a planted mismatch, by kind, is proven by reporting-service's OnlineReconciliationTest.)
 */
@ServerBacked
class OnlineReconciliationEndToEndTest {

    private static final int BANK_A = 31_313_131;
    private static final int BANK_B = 42_424_242;
    private static final Pattern CHECKED = Pattern.compile(
            "(?m)^pagora_reconciliation_checked_total\\{[^}]*check=\"(payment|account)\"[^}]*} ([0-9.eE+-]+)$");

    @ParameterizedTest(name = "ledger backend: {0}")
    @ValueSource(strings = {"postgresql", "tigerbeetle"})
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void aSettledWorkloadOfEveryOutcomeReconcilesWithoutAMismatch(String backend) {
        try (Pagora pagora = Pagora.start(new Pagora.Options(backend, 0.6, 0.2, Duration.ofSeconds(2), 1))) {
            pagora.startClearing();
            Participants participants = new Participants(pagora.paymentApi());
            List<Customer> customers = new ArrayList<>();
            for (int ispb : List.of(BANK_A, BANK_B)) {
                participants.registerBank(ispb, "Banco " + ispb);
                participants.fundReserve(ispb, 100_000_000L);
                for (int i = 0; i < 4; i++) {
                    Customer customer = participants.openCustomer(ispb, i == 0);
                    participants.fundCustomer(customer, i == 0 ? 100L : 1_000_000L);
                    customers.add(customer);
                }
            }
            PaymentBook book = new PaymentBook(pagora.paymentApi());
            List<Order> orders = new ArrayList<>();
            for (int i = 0; i < 60; i++) {
                // Interbank and on-us alike; the nearly empty customers (0 and 4) are refused for insufficient funds.
                Customer payer = customers.get(i % customers.size());
                Customer payee = customers.get((i * 3 + 1) % customers.size());
                if (!payee.equals(payer)) {
                    orders.add(Order.of(payer.id(), payee.id(), 1_000L + i));
                }
            }
            book.payBatch(orders);
            Quiescence.await(pagora, Duration.ofSeconds(60));
            Map<PaymentId, View> views =
                    Books.awaitFinalStates(pagora.reporting(), book.accepted(), Duration.ofSeconds(60));
            assertThat(views.values()).extracting(View::status).contains("SETTLED", "REJECTED", "EXPIRED");

            String metrics = awaitEveryPaymentJudged(
                    pagora, book.accepted().size(), participants.allAccounts().size() - 1);

            assertThat(Books.metric(metrics, "pagora_reconciliation_mismatches_total"))
                    .as(metrics)
                    .isZero();
            assertThat(metrics)
                    .contains(
                            "pagora_reconciliation_rounds_total{application=\"reporting-service\",result=\"failed\"} 0.0");
            Books.assertMoneyInvariants(pagora.ledger(), participants.allAccounts(), Duration.ofSeconds(15));
            Books.assertReadModelEqualsLedger(pagora, participants, book.accepted(), views);
        }
    }

    /** Waits until every accepted payment and at least {@code accounts} balances were reconciled; the exposition then. */
    private static String awaitEveryPaymentJudged(Pagora pagora, int payments, int accounts) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (true) {
            String metrics =
                    pagora.reporting().asOperator().get("/actuator/prometheus").body();
            double paymentsChecked = checked(metrics, "payment");
            double accountsChecked = checked(metrics, "account");
            if (paymentsChecked >= payments && accountsChecked >= accounts) {
                Pagora.log(
                        "reconciled: %.0f payments (of %d accepted), %.0f account balances",
                        paymentsChecked, payments, accountsChecked);
                assertThat(paymentsChecked).as("each payment is judged once").isEqualTo(payments);
                return metrics;
            }
            assertThat(System.nanoTime())
                    .as(
                            "reconciled within 60 s: %.0f of %d payments, %.0f of %d accounts",
                            paymentsChecked, payments, accountsChecked, accounts)
                    .isLessThan(deadline);
            Books.sleep(500);
        }
    }

    private static double checked(String metrics, String check) {
        Matcher matcher = CHECKED.matcher(metrics);
        while (matcher.find()) {
            if (matcher.group(1).equals(check)) {
                return Double.parseDouble(matcher.group(2));
            }
        }
        return 0;
    }
}
