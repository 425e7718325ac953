package io.pagora.e2e.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.e2e.support.PaymentBook.Accepted;
import io.pagora.events.PaymentEvent;
import io.pagora.events.PaymentExpired;
import io.pagora.events.PaymentRejected;
import io.pagora.events.PaymentSettled;
import io.pagora.events.Topics;
import io.pagora.ledger.domain.Account;
import io.pagora.ledger.domain.AccountFlags;
import io.pagora.kernel.Id128;
import io.pagora.ledger.domain.Ledger;
import io.pagora.ledger.domain.Transfer;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.LegId;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.testing.Http;
import io.pagora.testing.TestKafka;
import java.math.BigInteger;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The end-of-scenario checks: the read model holds exactly one final state for every accepted
 * payment and nothing else; the ledger's money invariants hold; the read model and the ledger tell
 * the same story, account by account and transfer by transfer; nothing was dead-lettered and no
 * service raised an integrity alarm.
 */
public final class Books {

    /** A payment as the read model (reporting-service, GET /payments/{id}) shows it. */
    public record View(PaymentId id, String status, String reason, Id128 payer, Id128 payee, long amountCentavos,
            Instant finalAt) {

        public boolean settled() {
            return "SETTLED".equals(status);
        }

        /** SETTLED, EXPIRED or REJECTED(REASON). */
        public String outcome() {
            return reason == null ? status : status + "(" + reason + ")";
        }
    }

    private static final int LOOKUP_BATCH_MAX = Ledger.BATCH_SIZE_MAX;

    private Books() {}

    /**
     * Waits (bounded) until reporting's GET /stats shows a final state for {@code expected} payments and
     * none still ACCEPTED, then reads every payment's view. Fails at once if the read model holds more
     * payments than were accepted.
     */
    public static Map<PaymentId, View> awaitFinalStates(Http reporting, Collection<Accepted> expected, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long started = System.nanoTime();
        JsonNode stats;
        while (true) {
            Http.Response response = reporting.get("/stats");
            assertThat(response.status()).as("GET /stats: %s", response).isEqualTo(200);
            stats = response.json();
            long total = stats.path("total").asLong();
            long pending = stats.path("counts").path("ACCEPTED").asLong();
            assertThat(total).as("the read model holds only accepted payments: %s", stats).isLessThanOrEqualTo(expected.size());
            if (total == expected.size() && pending == 0) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("after " + timeout + " the read model shows " + stats + " for "
                        + expected.size() + " accepted payments");
            }
            sleep(250);
        }
        Pagora.log("every accepted payment final in the read model after %d ms: %s",
                (System.nanoTime() - started) / 1_000_000, stats.path("counts"));

        Map<PaymentId, View> views = new LinkedHashMap<>();
        for (Accepted payment : expected) {
            Http.Response response = reporting.get("/payments/" + payment.id());
            assertThat(response.status()).as("GET /payments/%s: %s", payment.id(), response).isEqualTo(200);
            JsonNode body = response.json();
            View view = new View(PaymentId.parse(body.path("paymentId").asString()), body.path("status").asString(),
                    body.hasNonNull("reason") ? body.path("reason").asString() : null,
                    Id128.parse(body.path("payerAccountId").asString()), Id128.parse(body.path("payeeAccountId").asString()),
                    body.path("amountCentavos").asLong(),
                    body.hasNonNull("finalAt") ? Instant.parse(body.path("finalAt").asString()) : null);
            assertThat(view.id()).isEqualTo(payment.id());
            assertThat(view.status()).as("payment %s is in a final state", payment.id()).isIn("SETTLED", "REJECTED", "EXPIRED");
            assertThat(view.finalAt()).as("payment %s has a final time", payment.id()).isNotNull();
            assertThat(List.of(view.payer(), view.payee(), view.amountCentavos()))
                    .as("the read model shows payment %s as it was requested", payment.id())
                    .containsExactly(payment.payer(), payment.payee(), payment.amountCentavos());
            assertThat(view.status().equals("REJECTED")).as("only a rejection has a reason: %s", view)
                    .isEqualTo(view.reason() != null);
            views.put(view.id(), view);
        }
        return views;
    }

    /**
     * The money invariants over every account of the scenario, after waiting (bounded) until no
     * reservation is left pending: Σ debits = Σ credits (posted, and pending), no limited account
     * below zero (pending debits included), every account present.
     */
    public static List<Account> assertMoneyInvariants(Ledger ledger, Set<Id128> accountIds, Duration pendingWait) {
        List<Id128> ids = List.copyOf(accountIds);
        assertThat(ids.size()).isLessThanOrEqualTo(LOOKUP_BATCH_MAX);
        long deadline = System.nanoTime() + pendingWait.toNanos();
        List<Account> accounts = ledger.lookupAccounts(ids);
        // The PostgreSQL ledger releases expired reservations in a sweep (clearing's PostgresExpirySweeper).
        while (accounts.stream().anyMatch(account -> account.debitsPending() != 0 || account.creditsPending() != 0)
                && System.nanoTime() < deadline) {
            sleep(200);
            accounts = ledger.lookupAccounts(ids);
        }
        assertThat(accounts.stream().map(Account::id).toList()).as("every account exists").containsExactlyElementsOf(ids);
        BigInteger debitsPosted = BigInteger.ZERO;
        BigInteger creditsPosted = BigInteger.ZERO;
        BigInteger debitsPending = BigInteger.ZERO;
        BigInteger creditsPending = BigInteger.ZERO;
        for (Account account : accounts) {
            debitsPosted = debitsPosted.add(BigInteger.valueOf(account.debitsPosted()));
            creditsPosted = creditsPosted.add(BigInteger.valueOf(account.creditsPosted()));
            debitsPending = debitsPending.add(BigInteger.valueOf(account.debitsPending()));
            creditsPending = creditsPending.add(BigInteger.valueOf(account.creditsPending()));
            if (account.hasFlag(AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS)) {
                assertThat(BigInteger.valueOf(account.debitsPosted()).add(BigInteger.valueOf(account.debitsPending())))
                        .as("limited account %s never below zero", account)
                        .isLessThanOrEqualTo(BigInteger.valueOf(account.creditsPosted()));
            }
            assertThat(List.of(account.debitsPending(), account.creditsPending()))
                    .as("no reservation left pending after the timeout on %s", account).containsOnly(0L);
        }
        assertThat(debitsPosted).as("Σ debits_posted = Σ credits_posted").isEqualTo(creditsPosted);
        assertThat(debitsPending).as("Σ debits_pending = Σ credits_pending").isEqualTo(creditsPending);
        assertThat(creditsPosted.signum()).as("money moved at all").isPositive();
        return accounts;
    }

    /**
     * Read model = ledger. Balances: each customer's balance (payment-api GET /accounts/{id}/balance, from
     * the ledger) = its funding + Σ received − Σ sent over the payments the read model shows SETTLED; each
     * bank's reserve and transit, and the central bank, likewise. Transfers: a payment is SETTLED in the read
     * model if and only if its post legs exist in the ledger (for the full amount, posting its own pending
     * legs); a receiving bank's refusal has its void legs; a payment refused for insufficient funds reserved
     * nothing. Bank positions (reporting) agree with the reserves' movements.
     */
    public static void assertReadModelEqualsLedger(Pagora pagora, Participants participants,
            Collection<Accepted> payments, Map<PaymentId, View> views) {
        Map<Id128, Long> expected = new HashMap<>();
        for (Id128 account : participants.allAccounts()) {
            expected.put(account, participants.fundedCentavos(account));
        }
        long reserveFundings = participants.banks().stream().mapToLong(bank -> participants.fundedCentavos(bank.reserve())).sum();
        expected.put(ChartOfAccounts.centralBank(), -reserveFundings);
        for (Participants.Bank bank : participants.banks()) {
            expected.put(bank.transit(), -participants.customerFundingsAt(bank.ispb()));
        }
        Map<Integer, Long> interbankNet = new HashMap<>();
        Map<Integer, Long> onUsCount = new HashMap<>();
        Set<LocalDate> settlementDays = new TreeSet<>();
        for (Accepted payment : payments) {
            View view = views.get(payment.id());
            if (!view.settled()) {
                continue;
            }
            settlementDays.add(LocalDate.ofInstant(view.finalAt(), ZoneOffset.UTC));
            long amount = payment.amountCentavos();
            expected.merge(payment.payer(), -amount, Long::sum);
            expected.merge(payment.payee(), amount, Long::sum);
            int payerBank = ChartOfAccounts.bankOf(payment.payer()).orElseThrow().ispb();
            int payeeBank = ChartOfAccounts.bankOf(payment.payee()).orElseThrow().ispb();
            if (payment.onUs()) {
                onUsCount.merge(payerBank, 1L, Long::sum);
                continue;
            }
            Participants.Bank from = participants.bank(payerBank);
            Participants.Bank to = participants.bank(payeeBank);
            expected.merge(from.reserve(), -amount, Long::sum);
            expected.merge(to.reserve(), amount, Long::sum);
            expected.merge(from.transit(), amount, Long::sum);
            expected.merge(to.transit(), -amount, Long::sum);
            interbankNet.merge(payerBank, -amount, Long::sum);
            interbankNet.merge(payeeBank, amount, Long::sum);
        }

        // Customers through payment-api's HTTP balance (the ledger's word as the API serves it).
        for (Participants.Customer customer : participants.customers()) {
            Http.Response response = pagora.paymentApi().get("/accounts/" + customer.id() + "/balance");
            assertThat(response.status()).as("GET balance of %s: %s", customer.id(), response).isEqualTo(200);
            JsonNode balance = response.json();
            assertThat(balance.path("balanceCentavos").asLong())
                    .as("customer %s: funding + Σ received − Σ sent over SETTLED payments", customer.id())
                    .isEqualTo(expected.get(customer.id()));
            assertThat(balance.path("pendingDebitsCentavos").asLong()).as("nothing held on %s", customer.id()).isZero();
        }
        // Every account, customers included, straight from the ledger.
        List<Id128> ids = List.copyOf(participants.allAccounts());
        for (Account account : pagora.ledger().lookupAccounts(ids)) {
            assertThat(account.creditsPosted() - account.debitsPosted())
                    .as("ledger balance of %s (%s) = what the read model's SETTLED payments imply", account.id(),
                            ChartOfAccounts.kindOf(account.id()).map(Enum::name).orElse("?"))
                    .isEqualTo(expected.get(account.id()));
        }

        assertLegs(pagora.ledger(), payments, views);

        // Bank positions of the read model, summed over the days payments settled on.
        for (Participants.Bank bank : participants.banks()) {
            long net = 0;
            long onUs = 0;
            for (LocalDate day : settlementDays) {
                Http.Response response = pagora.reporting().get("/banks/" + bank.ispb() + "/positions?date=" + day);
                assertThat(response.status()).as("positions of %d on %s: %s", bank.ispb(), day, response).isEqualTo(200);
                net += response.json().path("netCentavos").asLong();
                onUs += response.json().path("onUsCount").asLong();
            }
            assertThat(net).as("bank %d: the read model's net position = its reserve's interbank movement", bank.ispb())
                    .isEqualTo(interbankNet.getOrDefault(bank.ispb(), 0L));
            assertThat(onUs).as("bank %d: on-us payments settled", bank.ispb()).isEqualTo(onUsCount.getOrDefault(bank.ispb(), 0L));
        }
    }

    /** SETTLED ⇔ post legs exist; the other outcomes leave the traces they should. */
    private static void assertLegs(Ledger ledger, Collection<Accepted> payments, Map<PaymentId, View> views) {
        List<Id128> ids = new ArrayList<>();
        for (Accepted payment : payments) {
            for (int leg = 1; leg <= payment.legs(); leg++) {
                ids.add(LegId.of(payment.id(), LegId.Phase.PENDING, leg));
                ids.add(LegId.of(payment.id(), LegId.Phase.POST, leg));
                ids.add(LegId.of(payment.id(), LegId.Phase.VOID, leg));
            }
        }
        Map<Id128, Transfer> transfers = new HashMap<>();
        for (int from = 0; from < ids.size(); from += LOOKUP_BATCH_MAX) {
            for (Transfer transfer : ledger.lookupTransfers(ids.subList(from, Math.min(ids.size(), from + LOOKUP_BATCH_MAX)))) {
                transfers.put(transfer.id(), transfer);
            }
        }
        for (Accepted payment : payments) {
            View view = views.get(payment.id());
            int posted = 0;
            int voided = 0;
            int reserved = 0;
            for (int leg = 1; leg <= payment.legs(); leg++) {
                Transfer post = transfers.get(LegId.of(payment.id(), LegId.Phase.POST, leg));
                if (post != null) {
                    posted++;
                    assertThat(post.amount()).as("post leg %d of %s moves the payment's amount", leg, payment.id())
                            .isEqualTo(payment.amountCentavos());
                    assertThat(post.pendingId()).as("post leg %d of %s posts its own pending leg", leg, payment.id())
                            .isEqualTo(LegId.of(payment.id(), LegId.Phase.PENDING, leg));
                }
                voided += transfers.containsKey(LegId.of(payment.id(), LegId.Phase.VOID, leg)) ? 1 : 0;
                reserved += transfers.containsKey(LegId.of(payment.id(), LegId.Phase.PENDING, leg)) ? 1 : 0;
            }
            if (view.settled()) {
                assertThat(posted).as("SETTLED %s: every post leg is in the ledger", payment.id()).isEqualTo(payment.legs());
                assertThat(voided).as("SETTLED %s: nothing voided", payment.id()).isZero();
            } else {
                assertThat(posted).as("%s %s: no post leg in the ledger", view.outcome(), payment.id()).isZero();
            }
            if ("REJECTED(RECEIVING_BANK_REFUSED)".equals(view.outcome())) {
                assertThat(voided).as("refused %s: every leg voided", payment.id()).isEqualTo(payment.legs());
            }
            if ("REJECTED(INSUFFICIENT_FUNDS)".equals(view.outcome())) {
                assertThat(reserved).as("%s refused for insufficient funds reserved nothing", payment.id()).isZero();
            }
            if (!"REJECTED(INSUFFICIENT_FUNDS)".equals(view.outcome())) {
                assertThat(reserved).as("%s %s was reserved", view.outcome(), payment.id()).isEqualTo(payment.legs());
            }
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
            published.computeIfAbsent(PaymentId.parse(event.paymentId()), id -> new ArrayList<>()).add(outcome);
        }
        assertThat(published.keySet()).as("outcomes were published for exactly the accepted payments")
                .containsExactlyInAnyOrderElementsOf(views.keySet());
        for (View view : views.values()) {
            assertThat(published.get(view.id())).as("every outcome published for %s", view.id()).containsOnly(view.outcome());
        }
        for (String topic : TestKafka.TOPICS) {
            if (topic.endsWith(".dlt")) {
                assertThat(pagora.kafka().records(topic)).as("nothing dead-lettered on %s", topic).isEmpty();
            }
        }
        Http.Response metrics = pagora.reporting().get("/actuator/prometheus");
        assertThat(metrics.status()).isEqualTo(200);
        for (String alarm : List.of("pagora_reporting_conflicting_outcomes_total", "pagora_reporting_inconsistent_events_total",
                "pagora_reporting_dead_letters_total")) {
            assertThat(metric(metrics.body(), alarm)).as("reporting-service %s", alarm).isZero();
        }
    }

    /** The sum over all series of a counter in a Prometheus text exposition (0 if absent). */
    public static double metric(String exposition, String name) {
        Matcher matcher = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*\\})? ([0-9.eE+-]+)$").matcher(exposition);
        double sum = 0;
        while (matcher.find()) {
            sum += Double.parseDouble(matcher.group(2));
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
