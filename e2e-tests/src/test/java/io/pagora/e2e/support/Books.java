package io.pagora.e2e.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.e2e.support.PaymentBook.Accepted;
import io.pagora.events.DeadLetterConvention;
import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentExpired;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentSettled;
import io.pagora.events.Topics;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.invariants.LedgerBooks;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.invariants.Claim;
import io.pagora.settlement.invariants.FinalStates;
import io.pagora.settlement.invariants.LedgerAgreement;
import io.pagora.settlement.invariants.PixBooks;
import io.pagora.testing.Http;
import io.pagora.testing.TestKafka;
import io.pagora.testing.ledger.MoneyInvariants;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;
import tools.jackson.databind.JsonNode;

/**
 * The end-of-scenario checks: the read model holds exactly one final state for every accepted
 * payment and nothing else; the ledger's money invariants hold; the read model and the ledger tell
 * the same story, account by account and transfer by transfer; nothing was dead-lettered and no
 * service raised an integrity alarm.
 */
public final class Books {

    /** A payment as the read model (reporting-service, GET /payments/{id}) shows it. */
    public record View(
            PaymentId id,
            String status,
            String reason,
            Id128 payer,
            Id128 payee,
            long amountCentavos,
            Instant finalAt) {

        public boolean settled() {
            return "SETTLED".equals(status);
        }

        /** SETTLED, EXPIRED or REJECTED(REASON). */
        public String outcome() {
            return reason == null ? status : status + "(" + reason + ")";
        }
    }

    private static final String READ_MODEL = "the read model";

    private Books() {}

    /**
     * Waits (bounded) until reporting's GET /stats (read by the operator) shows a final state for {@code expected}
     * payments and none still ACCEPTED, then reads every payment's view as its payer's bank. Fails at once if the
     * read model holds more payments than were accepted.
     */
    public static Map<PaymentId, View> awaitFinalStates(
            Service reporting, Collection<Accepted> expected, Duration timeout) {
        long started = System.nanoTime();
        AtomicReference<JsonNode> last = new AtomicReference<>();
        try {
            Poll.upTo(timeout, Duration.ofMillis(250)).until(() -> {
                Http.Response response = reporting.asOperator().get("/stats");
                assertThat(response.status()).as("GET /stats: %s", response).isEqualTo(200);
                JsonNode read = response.json();
                last.set(read);
                long total = read.path("total").asLong();
                assertThat(total)
                        .as("the read model holds only accepted payments: %s", read)
                        .isLessThanOrEqualTo(expected.size());
                return total == expected.size()
                        && read.path("counts").path("ACCEPTED").asLong() == 0;
            });
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(
                    "after " + timeout + " the read model shows " + last.get() + " for " + expected.size()
                            + " accepted payments",
                    e);
        }
        Pagora.log(
                "every accepted payment final in the read model after %d ms: %s",
                (System.nanoTime() - started) / 1_000_000, last.get().path("counts"));

        Map<PaymentId, View> views = new LinkedHashMap<>();
        for (Accepted payment : expected) {
            Http.Response response = reporting.asBankOf(payment.payer()).get("/payments/" + payment.id());
            assertThat(response.status())
                    .as("GET /payments/%s: %s", payment.id(), response)
                    .isEqualTo(200);
            JsonNode body = response.json();
            View view = new View(
                    PaymentId.parse(body.path("paymentId").asString()),
                    body.path("status").asString(),
                    body.hasNonNull("reason") ? body.path("reason").asString() : null,
                    Id128.parse(body.path("payerAccountId").asString()),
                    Id128.parse(body.path("payeeAccountId").asString()),
                    body.path("amountCentavos").asLong(),
                    body.hasNonNull("finalAt")
                            ? Instant.parse(body.path("finalAt").asString())
                            : null);
            assertThat(view.id()).isEqualTo(payment.id());
            assertThat(view.finalAt())
                    .as("payment %s has a final time", payment.id())
                    .isNotNull();
            assertThat(view.status().equals("REJECTED"))
                    .as("only a rejection has a reason: %s", view)
                    .isEqualTo(view.reason() != null);
            views.put(view.id(), view);
        }
        Map<PaymentId, Payment> accepted = new LinkedHashMap<>();
        expected.forEach(payment -> accepted.put(payment.id(), payment.asPayment()));
        MoneyInvariants.assertHolds(FinalStates.check(READ_MODEL, accepted, claims(views.values()), true));
        return views;
    }

    /** The read model's views as claims for the money invariant checker. */
    private static List<Claim> claims(Collection<View> views) {
        return views.stream()
                .map(view -> new Claim(
                        new Payment(view.id(), view.payer(), view.payee(), view.amountCentavos()),
                        view.status(),
                        view.reason()))
                .toList();
    }

    /**
     * The money invariants over every account of the scenario, after waiting (bounded) until no
     * reservation is left pending: Σ debits = Σ credits (posted, and pending), no limited account
     * below zero (pending debits included) and customers and reserves limited, every account present,
     * nothing pending; and money moved at all.
     */
    public static List<Account> assertMoneyInvariants(Ledger ledger, Set<Id128> accountIds, Duration pendingWait) {
        AtomicReference<LedgerBooks> read = new AtomicReference<>();
        try {
            // The PostgreSQL ledger releases expired reservations in a sweep (clearing's PostgresExpirySweeper).
            Poll.upTo(pendingWait, Duration.ofMillis(200)).until(() -> {
                read.set(PixBooks.read(ledger, accountIds));
                return read.get().nothingPending().holds();
            });
        } catch (ConditionTimeoutException stillPending) {
            // Asserted below, naming what is still pending.
        }
        LedgerBooks books = read.get();
        MoneyInvariants.assertHolds(
                books.zeroSum(), books.limits(PixBooks.MUST_BE_DEBIT_LIMITED), books.nothingPending());
        assertThat(books.accounts().stream().mapToLong(Account::creditsPosted).sum())
                .as("money moved at all")
                .isPositive();
        return books.accounts();
    }

    /**
     * Read model = ledger, by the money invariant checker: a payment is SETTLED in the read model if and
     * only if its post legs exist in the ledger (for the full amount, posting its own pending legs); a
     * receiving bank's refusal has its void legs; a payment refused for insufficient funds reserved nothing,
     * every other one reserved every leg; each account's posted debits and credits = its fundings + the legs
     * of the payments the read model shows SETTLED. Each customer's balance as payment-api serves it to the
     * customer's bank (GET /accounts/{id}/balance) is the ledger's, nothing held. Bank positions (reporting, as
     * each bank reads its own) agree with the reserves' movements.
     */
    public static void assertReadModelEqualsLedger(
            Pagora pagora, Participants participants, Collection<Accepted> payments, Map<PaymentId, View> views) {
        LedgerBooks books = PixBooks.read(pagora.ledger(), participants.allAccounts());
        List<Claim> claims =
                claims(payments.stream().map(payment -> views.get(payment.id())).toList());
        MoneyInvariants.assertHolds(LedgerAgreement.check(
                pagora.ledger(),
                READ_MODEL,
                books,
                participants.fundings(),
                claims,
                Set.of(),
                LedgerAgreement.Traces.ALL_PHASES));

        // Customers through payment-api's HTTP balance (the ledger's word as the API serves it).
        for (Participants.Customer customer : participants.customers()) {
            Http.Response response =
                    pagora.paymentApi().asBankOf(customer.id()).get("/accounts/" + customer.id() + "/balance");
            assertThat(response.status())
                    .as("GET balance of %s: %s", customer.id(), response)
                    .isEqualTo(200);
            JsonNode balance = response.json();
            Account account = books.found().get(customer.id());
            assertThat(balance.path("balanceCentavos").asLong())
                    .as("customer %s: the API serves the ledger's balance", customer.id())
                    .isEqualTo(account.creditsPosted() - account.debitsPosted());
            assertThat(balance.path("pendingDebitsCentavos").asLong())
                    .as("nothing held on %s", customer.id())
                    .isZero();
        }
        assertPositions(pagora, participants, payments, views);
    }

    /** Bank positions of the read model, summed over the days payments settled on, = the reserves' interbank movements. */
    private static void assertPositions(
            Pagora pagora, Participants participants, Collection<Accepted> payments, Map<PaymentId, View> views) {
        Map<Integer, Long> interbankNet = new HashMap<>();
        Map<Integer, Long> onUsCount = new HashMap<>();
        Set<LocalDate> settlementDays = new TreeSet<>();
        for (Accepted payment : payments) {
            View view = views.get(payment.id());
            if (!view.settled()) {
                continue;
            }
            settlementDays.add(LocalDate.ofInstant(view.finalAt(), ZoneOffset.UTC));
            int payerBank =
                    ChartOfAccounts.bankOf(payment.payer()).orElseThrow().ispb();
            int payeeBank =
                    ChartOfAccounts.bankOf(payment.payee()).orElseThrow().ispb();
            if (payment.onUs()) {
                onUsCount.merge(payerBank, 1L, Long::sum);
                continue;
            }
            interbankNet.merge(payerBank, -payment.amountCentavos(), Long::sum);
            interbankNet.merge(payeeBank, payment.amountCentavos(), Long::sum);
        }
        for (Participants.Bank bank : participants.banks()) {
            long net = 0;
            long onUs = 0;
            for (LocalDate day : settlementDays) {
                Http.Response response =
                        pagora.reporting().asBank(bank.ispb()).get("/banks/" + bank.ispb() + "/positions?date=" + day);
                assertThat(response.status())
                        .as("positions of %d on %s: %s", bank.ispb(), day, response)
                        .isEqualTo(200);
                net += response.json().path("netCentavos").asLong();
                onUs += response.json().path("onUsCount").asLong();
            }
            assertThat(net)
                    .as("bank %d: the read model's net position = its reserve's interbank movement", bank.ispb())
                    .isEqualTo(interbankNet.getOrDefault(bank.ispb(), 0L));
            assertThat(onUs)
                    .as("bank %d: on-us payments settled", bank.ispb())
                    .isEqualTo(onUsCount.getOrDefault(bank.ispb(), 0L));
        }
    }

    /**
     * Every outcome clearing published for a payment (redeliveries may publish one several times) says
     * what the read model says; no record was dead-lettered anywhere; reporting counted no integrity alarm.
     */
    public static void assertOutcomesAgreeAndNothingLost(Pagora pagora, Map<PaymentId, View> views) {
        Map<PaymentId, List<String>> published = new HashMap<>();
        for (PaymentEvent event : pagora.kafka().events(Topics.PAYMENT_OUTCOMES)) {
            String outcome = switch (event) {
                case PaymentSettled ignored -> "SETTLED";
                case PaymentExpired ignored -> "EXPIRED";
                case PaymentRejected rejected -> "REJECTED(" + rejected.reason().name() + ")";
                default -> throw new AssertionError("not an outcome on the outcomes topic: " + event);
            };
            published
                    .computeIfAbsent(PaymentId.parse(event.paymentId()), id -> new ArrayList<>())
                    .add(outcome);
        }
        assertThat(published.keySet())
                .as("outcomes were published for exactly the accepted payments")
                .containsExactlyInAnyOrderElementsOf(views.keySet());
        for (View view : views.values()) {
            assertThat(published.get(view.id()))
                    .as("every outcome published for %s", view.id())
                    .containsOnly(view.outcome());
        }
        for (String topic : TestKafka.TOPICS) {
            if (topic.endsWith(DeadLetterConvention.SUFFIX)) {
                assertThat(pagora.kafka().records(topic))
                        .as("nothing dead-lettered on %s", topic)
                        .isEmpty();
            }
        }
        Http.Response metrics = pagora.reporting().asOperator().get("/actuator/prometheus");
        assertThat(metrics.status()).isEqualTo(200);
        for (String alarm : List.of(
                "pagora_reporting_conflicting_outcomes_total",
                "pagora_reporting_inconsistent_events_total",
                "pagora_reporting_dead_letters_total")) {
            assertThat(metric(metrics.body(), alarm))
                    .as("reporting-service %s", alarm)
                    .isZero();
        }
    }

    /** The sum over all series of a counter in a Prometheus text exposition (0 if absent). */
    public static double metric(String exposition, String name) {
        return metric(exposition, name, "");
    }

    /** The sum over the series of a counter whose labels include {@code label}, e.g. {@code reason="anonymous"} (0 if none). */
    public static double metric(String exposition, String name, String label) {
        Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*\\})? ([0-9.eE+-]+)$")
                .matcher(exposition);
        double sum = 0;
        while (matcher.find()) {
            String labels = matcher.group(1) == null ? "" : matcher.group(1);
            if (labels.contains(label)) {
                sum += Double.parseDouble(matcher.group(2));
            }
        }
        return sum;
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
