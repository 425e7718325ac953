package io.pagora.settlement.invariants;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.TransferResult;
import io.pagora.ledger.port.invariants.Finding;
import io.pagora.ledger.port.invariants.LedgerBooks;
import io.pagora.settlement.application.Participants;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.VoidCause;
import io.pagora.testing.ledger.ReferenceLedger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The one money invariant checker, as a specification: on a small PIX world in the reference ledger
 * (two banks, three customers, one payment settled, one voided by the receiving bank) every finding
 * holds, and each kind of broken books — a wrong read model, a lost or doubly-final payment, a ledger
 * that does not sum to zero, an account below zero or without its limit, a reservation left pending —
 * makes exactly the finding that should fail fail, saying which payment or account and why.
 */
class MoneyInvariantCheckerTest {

    private static final BankId BANK_A = new BankId(1);
    private static final BankId BANK_B = new BankId(2);
    private static final String READ_MODEL = "the read model";

    private final TimeOrderedIds ids = new TimeOrderedIds();
    private final ReferenceLedger reference = ReferenceLedger.onWallClock();
    private final List<Movement> fundings = new ArrayList<>();
    private final List<Id128> accounts = new ArrayList<>();
    private Id128 alice;
    private Id128 bruno;
    private Id128 carla;
    private Payment settled;
    private Payment refused;

    @BeforeEach
    void aSmallPixWorld() {
        Participants participants = new Participants(reference);
        assertThat(participants.openCentralBank().isSuccess()).isTrue();
        accounts.add(ChartOfAccounts.centralBank());
        for (BankId bank : List.of(BANK_A, BANK_B)) {
            assertThat(participants.registerBank(bank)).allMatch(AccountResult::isSuccess);
            accounts.addAll(List.of(ChartOfAccounts.reserve(bank), ChartOfAccounts.transit(bank)));
            assertThat(participants.fundReserve(ids.next(), bank, 1_000_00)).isEqualTo(TransferResult.OK);
            fundings.add(new Movement(ChartOfAccounts.centralBank(), ChartOfAccounts.reserve(bank), 1_000_00));
        }
        assertThat(participants.openCustomers(BANK_A, List.of(1L, 2L))).allMatch(AccountResult::isSuccess);
        assertThat(participants.openCustomers(BANK_B, List.of(1L))).allMatch(AccountResult::isSuccess);
        alice = ChartOfAccounts.customer(BANK_A, 1);
        carla = ChartOfAccounts.customer(BANK_A, 2);
        bruno = ChartOfAccounts.customer(BANK_B, 1);
        for (Id128 customer : List.of(alice, carla, bruno)) {
            accounts.add(customer);
            assertThat(participants.fundCustomer(ids.next(), customer, 100_00)).isEqualTo(TransferResult.OK);
            fundings.add(new Movement(
                    ChartOfAccounts.transit(ChartOfAccounts.bankOf(customer).orElseThrow()), customer, 100_00));
        }
        Settlement settlement = new Settlement(reference, 60);
        settled = new Payment(ids.nextPaymentId(), alice, bruno, 30_00);
        refused = new Payment(ids.nextPaymentId(), bruno, carla, 20_00);
        settlement.reserve(List.of(settled, refused));
        settlement.post(List.of(settled));
        settlement.voidAll(List.of(refused), VoidCause.RECEIVING_BANK_REFUSED);
    }

    @Test
    void theBooksOfAConsistentWorldHoldEveryInvariant() {
        LedgerBooks books = PixBooks.read(reference, accounts);

        assertThat(List.of(
                        books.zeroSum(),
                        books.limits(PixBooks.MUST_BE_DEBIT_LIMITED),
                        books.nothingPending(),
                        FinalStates.check(READ_MODEL, accepted(), truth(), true),
                        LedgerAgreement.check(
                                reference,
                                READ_MODEL,
                                books,
                                fundings,
                                truth(),
                                Set.of(),
                                LedgerAgreement.Traces.ALL_PHASES)))
                .allSatisfy(finding -> assertThat(finding.violations())
                        .as(finding.describe(10))
                        .isEmpty());
    }

    @Test
    void aReadModelThatCallsAVoidedPaymentSettledDisagreesWithTheLedger() {
        List<Claim> claims = List.of(claim(settled, "SETTLED", null), claim(refused, "SETTLED", null));

        Finding finding = agreement(claims, Set.of());

        assertThat(finding.violations())
                .anyMatch(violation -> violation.contains(refused.id().toString())
                        && violation.contains("SETTLED in the read model but 0 of 3 post legs"));
        assertThat(finding.violations()).anyMatch(violation -> violation.contains("voided"));
        assertThat(finding.violations())
                .anyMatch(violation -> violation.contains(carla.toString()) && violation.contains("difference -2000"));
    }

    @Test
    void aReadModelThatMissedASettlementDisagreesAccountByAccount() {
        Finding finding = agreement(List.of(claim(refused, "REJECTED", "RECEIVING_BANK_REFUSED")), Set.of());

        assertThat(finding.violations())
                .anyMatch(violation -> violation.contains(bruno.toString()) && violation.contains("difference 3000"));
    }

    @Test
    void anAccountThatMovedWhileItWasReadIsInFlightNotJudged() {
        Finding finding = agreement(
                List.of(claim(refused, "REJECTED", "RECEIVING_BANK_REFUSED")),
                Set.of(
                        alice,
                        bruno,
                        ChartOfAccounts.reserve(BANK_A),
                        ChartOfAccounts.reserve(BANK_B),
                        ChartOfAccounts.transit(BANK_A),
                        ChartOfAccounts.transit(BANK_B)));

        assertThat(finding.violations()).isEmpty();
        assertThat(finding.summary()).contains("6 more moved while read: in flight");
    }

    @Test
    void aPaymentLostNotFinalTwiceFinalOrMisdescribedIsReported() {
        Payment lost = new Payment(ids.nextPaymentId(), alice, carla, 1_00);
        Payment stuck = new Payment(ids.nextPaymentId(), carla, alice, 1_00);
        Map<PaymentId, Payment> accepted = accepted();
        accepted.put(lost.id(), lost);
        accepted.put(stuck.id(), stuck);
        List<Claim> claims = List.of(
                claim(settled, "SETTLED", null),
                claim(settled, "EXPIRED", null),
                claim(new Payment(refused.id(), bruno, carla, 99_00), "REJECTED", "RECEIVING_BANK_REFUSED"),
                claim(stuck, "ACCEPTED", null));

        Finding finding = FinalStates.check(READ_MODEL, accepted, claims, true);

        assertThat(finding.violations())
                .anyMatch(v -> v.contains(lost.id().toString()) && v.contains("not in the read model"));
        assertThat(finding.violations())
                .anyMatch(v -> v.contains(stuck.id().toString()) && v.contains("no final state"));
        assertThat(finding.violations())
                .anyMatch(v -> v.contains(settled.id().toString()) && v.contains("2 final states"));
        assertThat(finding.violations()).anyMatch(v -> v.contains(settled.id().toString()) && v.contains("2 times"));
        assertThat(finding.violations())
                .anyMatch(v -> v.contains(refused.id().toString()) && v.contains("requested as"));
    }

    @Test
    void theSameOutcomePublishedTwiceIsOneFinalState() {
        List<Claim> outcomes = new ArrayList<>(truth());
        outcomes.add(claim(settled, "SETTLED", null));

        assertThat(FinalStates.check("the published outcomes", accepted(), outcomes, false)
                        .violations())
                .isEmpty();
    }

    @Test
    void aLedgerThatDoesNotSumToZeroOrLacksAnAccountFails() {
        LedgerBooks books = tampered(account -> account.id().equals(alice)
                ? copy(account, account.debitsPosted(), account.creditsPosted() + 1, account.flags())
                : account);
        List<Id128> withUnknown = new ArrayList<>(accounts);
        withUnknown.add(ChartOfAccounts.customer(BANK_B, 99));

        assertThat(books.zeroSum().violations()).anyMatch(v -> v.contains("Σ debits_posted") && v.contains("≠"));
        assertThat(PixBooks.read(reference, withUnknown).zeroSum().violations())
                .anyMatch(v -> v.contains(ChartOfAccounts.customer(BANK_B, 99).toString())
                        && v.contains("is not in the ledger"));
    }

    @Test
    void anAccountBelowZeroOrWithoutItsLimitFails() {
        LedgerBooks belowZero = tampered(account -> account.id().equals(alice)
                ? copy(account, account.creditsPosted() + 1, account.creditsPosted(), account.flags())
                : account);
        LedgerBooks unlimited = tampered(account -> account.id().equals(carla)
                ? copy(account, account.debitsPosted(), account.creditsPosted(), 0)
                : account);

        assertThat(belowZero.limits(PixBooks.MUST_BE_DEBIT_LIMITED).violations())
                .anyMatch(v -> v.contains(alice.toString()) && v.contains("below zero"));
        assertThat(unlimited.limits(PixBooks.MUST_BE_DEBIT_LIMITED).violations())
                .anyMatch(v -> v.contains(carla.toString()) && v.contains("lacks debits_must_not_exceed_credits"));
        assertThat(unlimited.limits().violations())
                .as("without the PIX chart no flag is required")
                .isEmpty();
    }

    @Test
    void aReservationLeftPendingFails() {
        Payment pending = new Payment(ids.nextPaymentId(), carla, bruno, 5_00);
        new Settlement(reference, 60).reserve(List.of(pending));

        LedgerBooks books = PixBooks.read(reference, accounts);

        assertThat(books.zeroSum().violations())
                .as("pending amounts sum to zero too")
                .isEmpty();
        assertThat(books.nothingPending().violations())
                .anyMatch(v -> v.contains(carla.toString()) && v.contains("debits_pending 500"));
    }

    private Finding agreement(List<Claim> claims, Set<Id128> moving) {
        return LedgerAgreement.check(
                reference,
                READ_MODEL,
                PixBooks.read(reference, accounts),
                fundings,
                claims,
                moving,
                LedgerAgreement.Traces.ALL_PHASES);
    }

    private Map<PaymentId, Payment> accepted() {
        Map<PaymentId, Payment> accepted = new LinkedHashMap<>();
        accepted.put(settled.id(), settled);
        accepted.put(refused.id(), refused);
        return accepted;
    }

    private List<Claim> truth() {
        return List.of(claim(settled, "SETTLED", null), claim(refused, "REJECTED", "RECEIVING_BANK_REFUSED"));
    }

    private static Claim claim(Payment payment, String status, String reason) {
        return new Claim(payment, status, reason);
    }

    private static Account copy(Account account, long debitsPosted, long creditsPosted, int flags) {
        return new Account(
                account.id(),
                account.ledger(),
                account.code(),
                flags,
                account.debitsPending(),
                debitsPosted,
                account.creditsPending(),
                creditsPosted,
                account.userData128(),
                account.userData64(),
                account.userData32(),
                account.timestamp());
    }

    /** The books as the reference ledger keeps them, but each account changed by {@code change}: books no real ledger keeps. */
    private LedgerBooks tampered(UnaryOperator<Account> change) {
        return LedgerBooks.read(
                batch -> reference.lookupAccounts(batch).stream().map(change).toList(), accounts, PixBooks::describe);
    }
}
