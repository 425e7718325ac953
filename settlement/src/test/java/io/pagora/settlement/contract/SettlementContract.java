package io.pagora.settlement.contract;

import static io.pagora.ledger.port.TransferResult.CREDIT_ACCOUNT_NOT_FOUND;
import static io.pagora.ledger.port.TransferResult.DEBIT_ACCOUNT_NOT_FOUND;
import static io.pagora.ledger.port.TransferResult.EXCEEDS_CREDITS;
import static io.pagora.ledger.port.TransferResult.EXISTS_WITH_DIFFERENT_AMOUNT;
import static io.pagora.ledger.port.TransferResult.EXISTS_WITH_DIFFERENT_TIMEOUT;
import static io.pagora.ledger.port.TransferResult.ID_ALREADY_FAILED;
import static io.pagora.ledger.port.TransferResult.OK;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.Transfer;
import io.pagora.settlement.application.HoldingFunds;
import io.pagora.settlement.application.Participants;
import io.pagora.settlement.application.Settlement;
import io.pagora.settlement.application.TracingFunds;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChainState;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.LegId;
import io.pagora.settlement.domain.Payment;
import io.pagora.settlement.domain.PaymentId;
import io.pagora.settlement.domain.ReservationOutcome;
import io.pagora.settlement.domain.ReservationOutcome.RefusalReason;
import io.pagora.settlement.domain.ResolutionOutcome;
import io.pagora.settlement.domain.SettlementPlan;
import io.pagora.settlement.domain.TimeOrderedIds;
import io.pagora.settlement.domain.TransferCode;
import io.pagora.settlement.domain.VoidCause;
import io.pagora.settlement.domain.med.FundsTrace;
import io.pagora.settlement.domain.med.HoldIds;
import io.pagora.settlement.domain.med.RefundOutcome;
import io.pagora.settlement.domain.med.TraceLimits;
import io.pagora.testing.ledger.LedgerFixture;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The settlement contract: the PIX layer ({@link Participants}, {@link Settlement}) on top of any
 * {@link Ledger} backend reserves, posts, voids, expires and refuses payments correctly and
 * idempotently, and reads a payment's chain back ({@link ChainState}) the same way on every backend.
 * Subclasses run it against the reference model, PostgreSQL and TigerBeetle.
 *
 * <p>Every test that moves money ends with the money invariants over the accounts it created (see
 * {@link LedgerFixture}).
 */
public abstract class SettlementContract extends LedgerFixture {

    // =============================================================================================
    // PIX settlement on top of the port

    @Test
    @DisplayName("PIX: an interbank payment reserves three legs, then posting moves the money payer → reserves → payee")
    void pixInterbankPaymentSettles() {
        Pix pix = new Pix(60);
        BankId payerBank = pix.bank(10_000);
        BankId payeeBank = pix.bank(0);
        Id128 payer = pix.customer(payerBank, 500);
        Id128 payee = pix.customer(payeeBank, 0);
        Payment payment = pix.payment(payer, payee, 120);

        assertThat(pix.settlement.reserve(List.of(payment))).containsExactly(new ReservationOutcome.Reserved());
        assertThat(balances(payer)).isEqualTo(new Balances(120, 0, 0, 500));
        assertThat(balances(ChartOfAccounts.reserve(payerBank))).isEqualTo(new Balances(120, 0, 0, 10_000));
        assertThat(balances(payee)).isEqualTo(new Balances(0, 0, 120, 0));
        assertThat(lookupTransfer(LegId.of(payment.id(), LegId.Phase.PENDING, 2))
                        .userData128())
                .isEqualTo(payment.id().value());

        assertThat(pix.settlement.post(List.of(payment))).containsExactly(new ResolutionOutcome.Posted());
        assertThat(lookupAccount(payer).creditBalancePosted()).isEqualTo(380);
        assertThat(lookupAccount(payee).creditBalancePosted()).isEqualTo(120);
        assertThat(lookupAccount(ChartOfAccounts.reserve(payerBank)).creditBalancePosted())
                .isEqualTo(9_880);
        assertThat(lookupAccount(ChartOfAccounts.reserve(payeeBank)).creditBalancePosted())
                .isEqualTo(120);
        // A late "refused" after the post: the ledger's earlier resolution wins, and nothing moves back.
        Map<Id128, Balances> settled = balancesOfAll();
        assertThat(pix.settlement.voidAll(List.of(payment), VoidCause.RECEIVING_BANK_REFUSED))
                .containsExactly(new ResolutionOutcome.Posted());
        assertThat(balancesOfAll()).isEqualTo(settled);
        assertMoneyInvariants();
        assertNothingPending();
    }

    @Test
    @DisplayName("PIX: an open chain reads back the instant it lapses: its pending legs' ledger time plus the timeout")
    void pixOpenChainReadsBackWhenItLapses() {
        Pix pix = new Pix(60);
        BankId payerBank = pix.bank(1_000);
        Id128 payer = pix.customer(payerBank, 300);
        Id128 payee = pix.customer(pix.bank(0), 0);
        Payment payment = pix.payment(payer, payee, 100);
        long beforeNanos = epochNanosNow();
        assertThat(pix.settlement.reserve(List.of(payment))).containsExactly(new ReservationOutcome.Reserved());
        long afterNanos = epochNanosNow();

        ChainState state = pix.settlement.inspect(List.of(payment)).getFirst();
        assertThat(state).isInstanceOf(ChainState.Open.class);
        long expiresAtNanos = ((ChainState.Open) state).expiresAtNanos();
        Transfer first = lookupTransfer(LegId.of(payment.id(), LegId.Phase.PENDING, 1));
        assertThat(expiresAtNanos)
                .as("the first leg's ledger time plus its timeout")
                .isEqualTo(first.timestamp() + 60 * 1_000_000_000L);
        // Ledger time is epoch nanoseconds at the reservation, not a counter: a clearing process can compare it to
        // its own clock (TigerBeetle's cluster time may stray from this host's by a little).
        long slackNanos = Duration.ofSeconds(1).toNanos();
        assertThat(expiresAtNanos - 60 * 1_000_000_000L).isBetween(beforeNanos - slackNanos, afterNanos + slackNanos);
        assertThat(((ChainState.Open) state).expiresAt().toEpochMilli()).isEqualTo(expiresAtNanos / 1_000_000);

        // A retried reservation keeps the first one's lapse instant: the ledger's timeout runs from the first.
        assertThat(pix.settlement.reserve(List.of(payment))).containsExactly(new ReservationOutcome.Reserved(true));
        assertThat(pix.settlement.inspect(List.of(payment))).containsExactly(new ChainState.Open(expiresAtNanos));
        assertThat(pix.settlement.voidAll(List.of(payment), VoidCause.UNANSWERED))
                .containsExactly(new ResolutionOutcome.Voided(VoidCause.UNANSWERED));
        assertMoneyInvariants();
        assertNothingPending();
    }

    private static long epochNanosNow() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    @Test
    @DisplayName("PIX: an on-us payment is one leg payer → payee; the bank's reserve does not move")
    void pixOnUsPaymentSettles() {
        Pix pix = new Pix(60);
        BankId bank = pix.bank(1_000);
        Id128 payer = pix.customer(bank, 300);
        Id128 payee = pix.customer(bank, 0);
        Payment payment = pix.payment(payer, payee, 300);

        assertThat(pix.settlement.reserve(List.of(payment))).containsExactly(new ReservationOutcome.Reserved());
        assertThat(ledger.lookupTransfers(List.of(
                        LegId.of(payment.id(), LegId.Phase.PENDING, 1),
                        LegId.of(payment.id(), LegId.Phase.PENDING, 2))))
                .hasSize(1);
        assertThat(pix.settlement.post(List.of(payment))).containsExactly(new ResolutionOutcome.Posted());
        assertThat(lookupAccount(payer).creditBalancePosted()).isZero();
        assertThat(lookupAccount(payee).creditBalancePosted()).isEqualTo(300);
        assertThat(balances(ChartOfAccounts.reserve(bank))).isEqualTo(new Balances(0, 0, 0, 1_000));
        assertMoneyInvariants();
        assertNothingPending();
    }

    @Test
    @DisplayName("PIX: voiding a reserved payment releases every leg and moves nothing; a later post reports it Voided")
    void pixVoidReleasesEverything() {
        Pix pix = new Pix(60);
        BankId payerBank = pix.bank(1_000);
        BankId payeeBank = pix.bank(0);
        Id128 payer = pix.customer(payerBank, 200);
        Id128 payee = pix.customer(payeeBank, 0);
        Payment payment = pix.payment(payer, payee, 200);
        Map<Id128, Balances> before = balancesOfAll();

        assertThat(pix.settlement.reserve(List.of(payment))).containsExactly(new ReservationOutcome.Reserved());
        ResolutionOutcome refused = new ResolutionOutcome.Voided(VoidCause.RECEIVING_BANK_REFUSED);
        assertThat(pix.settlement.voidAll(List.of(payment), VoidCause.RECEIVING_BANK_REFUSED))
                .containsExactly(refused);
        assertThat(balancesOfAll()).isEqualTo(before);
        // A late "accepted" after the void: the ledger's earlier resolution, and its cause, win; nothing moves.
        assertThat(pix.settlement.post(List.of(payment))).containsExactly(refused);
        // A late expiry after the refusal: the first void's cause stays the payment's outcome.
        assertThat(pix.settlement.voidAll(List.of(payment), VoidCause.UNANSWERED))
                .containsExactly(refused);
        assertThat(pix.settlement.inspect(List.of(payment)))
                .containsExactly(new ChainState.Voided(VoidCause.RECEIVING_BANK_REFUSED));
        assertThat(balancesOfAll()).isEqualTo(before);
        assertMoneyInvariants();
        assertNothingPending();
    }

    @Test
    @DisplayName(
            "PIX: refusals name their reason: insufficient funds, insufficient reserve, unknown account; nothing is reserved")
    void pixRefusalsNameTheirReason() {
        Pix pix = new Pix(60);
        BankId richBank = pix.bank(10_000);
        BankId poorBank = pix.bank(50);
        BankId payeeBank = pix.bank(0);
        Id128 poorCustomer = pix.customer(richBank, 10);
        Id128 richCustomerOfPoorBank = pix.customer(poorBank, 1_000);
        Id128 payee = pix.customer(payeeBank, 0);
        Id128 unknownPayee = ChartOfAccounts.customer(payeeBank, 999_999);
        Id128 sameBankPayee = pix.customer(richBank, 0);
        Map<Id128, Balances> before = balancesOfAll();

        List<ReservationOutcome> outcomes = pix.settlement.reserve(List.of(
                pix.payment(poorCustomer, payee, 11),
                pix.payment(richCustomerOfPoorBank, payee, 51),
                pix.payment(richCustomerOfPoorBank, unknownPayee, 5),
                pix.payment(ChartOfAccounts.customer(richBank, 888_888), payee, 5),
                pix.payment(poorCustomer, sameBankPayee, 11)));
        assertThat(outcomes)
                .containsExactly(
                        new ReservationOutcome.Refused(RefusalReason.INSUFFICIENT_FUNDS, 1, EXCEEDS_CREDITS),
                        new ReservationOutcome.Refused(RefusalReason.INSUFFICIENT_RESERVE, 2, EXCEEDS_CREDITS),
                        new ReservationOutcome.Refused(RefusalReason.UNKNOWN_ACCOUNT, 3, CREDIT_ACCOUNT_NOT_FOUND),
                        new ReservationOutcome.Refused(RefusalReason.UNKNOWN_ACCOUNT, 1, DEBIT_ACCOUNT_NOT_FOUND),
                        new ReservationOutcome.Refused(RefusalReason.INSUFFICIENT_FUNDS, 1, EXCEEDS_CREDITS));
        assertThat(balancesOfAll()).isEqualTo(before);
        assertMoneyInvariants();
    }

    @Test
    @DisplayName("PIX: a refused payment retried with the same id is PREVIOUSLY_FAILED, even once funds arrive")
    void pixRefusedPaymentStaysFailed() {
        Pix pix = new Pix(60);
        BankId payerBank = pix.bank(1_000);
        BankId payeeBank = pix.bank(0);
        Id128 payer = pix.customer(payerBank, 10);
        Id128 payee = pix.customer(payeeBank, 0);
        Payment payment = pix.payment(payer, payee, 50);
        assertThat(pix.settlement.reserve(List.of(payment)))
                .containsExactly(new ReservationOutcome.Refused(RefusalReason.INSUFFICIENT_FUNDS, 1, EXCEEDS_CREDITS));
        pix.participants.fundCustomer(newId(), payer, 100);

        assertThat(pix.settlement.reserve(List.of(payment)))
                .containsExactly(new ReservationOutcome.Refused(RefusalReason.PREVIOUSLY_FAILED, 1, ID_ALREADY_FAILED));
        assertThat(pix.settlement.reserve(List.of(pix.payment(payer, payee, 50))))
                .as("a new payment id goes through")
                .containsExactly(new ReservationOutcome.Reserved());
        assertMoneyInvariants();
    }

    @Test
    @DisplayName("PIX: reservations in one batch count against each other: the second of two 60s from 100 is refused")
    void pixReservationsInOneBatchCountAgainstEachOther() {
        Pix pix = new Pix(60);
        BankId payerBank = pix.bank(1_000);
        BankId payeeBank = pix.bank(0);
        Id128 payer = pix.customer(payerBank, 100);
        Id128 payee = pix.customer(payeeBank, 0);
        Id128 onUsPayee = pix.customer(payerBank, 0);
        List<Payment> payments = List.of(
                pix.payment(payer, payee, 60), pix.payment(payer, onUsPayee, 60), pix.payment(payer, onUsPayee, 40));
        assertThat(pix.settlement.reserve(payments))
                .containsExactly(
                        new ReservationOutcome.Reserved(),
                        new ReservationOutcome.Refused(RefusalReason.INSUFFICIENT_FUNDS, 1, EXCEEDS_CREDITS),
                        new ReservationOutcome.Reserved());
        assertThat(pix.settlement.post(List.of(payments.get(0), payments.get(2))))
                .containsExactly(new ResolutionOutcome.Posted(), new ResolutionOutcome.Posted());
        assertThat(lookupAccount(payer).creditBalancePosted()).isZero();
        assertMoneyInvariants();
        assertNothingPending();
    }

    @Test
    @DisplayName(
            "PIX: a reservation redelivered under another pending timeout is the payment's own, not an integrity alarm")
    void pixRedeliveryUnderAnotherTimeoutFindsTheLedgersReservation() {
        Pix pix = new Pix(60);
        Id128 payer = pix.customer(pix.bank(1_000), 200);
        Id128 payee = pix.customer(pix.bank(0), 0);
        Payment payment = pix.payment(payer, payee, 200);
        assertThat(pix.settlement.reserve(List.of(payment))).containsExactly(new ReservationOutcome.Reserved());
        assertThat(pix.settlement.post(List.of(payment))).containsExactly(new ResolutionOutcome.Posted());
        Map<Id128, Balances> settled = balancesOfAll();

        // Clearing restarted with another pagora.clearing.pending-timeout, and the poll is redelivered.
        Settlement restarted = new Settlement(ledger, 90);
        assertThat(ledger.createTransfers(SettlementPlan.of(payment).pendingChain(90))
                        .getFirst())
                .as("the ledger's own answer")
                .isEqualTo(EXISTS_WITH_DIFFERENT_TIMEOUT);
        assertThat(restarted.inspect(List.of(payment))).containsExactly(new ChainState.Posted());
        assertThat(restarted.reserve(List.of(payment)))
                .as("reserved earlier: clearing asks the ledger before acting")
                .containsExactly(new ReservationOutcome.Reserved(true));
        assertThat(restarted.post(List.of(payment))).containsExactly(new ResolutionOutcome.Posted());
        assertThat(balancesOfAll()).isEqualTo(settled);
        assertMoneyInvariants();
    }

    @Test
    @DisplayName(
            "PIX: a different payment under a settled payment's id stays an integrity alarm once the ledger is asked")
    void pixImpostorUnderASettledIdIsAnAlarm() {
        Pix pix = new Pix(60);
        Id128 payer = pix.customer(pix.bank(1_000), 500);
        Id128 payee = pix.customer(pix.bank(0), 0);
        Payment payment = pix.payment(payer, payee, 200);
        pix.settlement.reserve(List.of(payment));
        assertThat(pix.settlement.post(List.of(payment))).containsExactly(new ResolutionOutcome.Posted());
        Map<Id128, Balances> settled = balancesOfAll();

        Payment impostor = new Payment(payment.id(), payer, payee, 300);
        assertThat(pix.settlement.inspect(List.of(impostor)).getFirst()).isInstanceOf(ChainState.Conflicting.class);
        assertThat(pix.settlement.reserve(List.of(impostor)))
                .containsExactly(new ReservationOutcome.IntegrityAlarm(1, EXISTS_WITH_DIFFERENT_AMOUNT));
        assertThat(pix.settlement.post(List.of(impostor)).getFirst())
                .isInstanceOf(ResolutionOutcome.IntegrityAlarm.class);
        assertThat(balancesOfAll()).isEqualTo(settled);
        assertMoneyInvariants();
    }

    @Test
    @DisplayName(
            "PIX: a reserved chain gives back its payment (payer, payee, amount, acceptance time); an unknown id none")
    void pixReservedChainsGiveBackTheirPayments() {
        Pix pix = new Pix(60);
        BankId payerBank = pix.bank(1_000);
        BankId payeeBank = pix.bank(0);
        Id128 payer = pix.customer(payerBank, 500);
        Payment interbank = withAcceptedAt(pix.payment(payer, pix.customer(payeeBank, 0), 100), 1_767_225_600_123L);
        Payment onUs = withAcceptedAt(pix.payment(payer, pix.customer(payerBank, 0), 50), 1_767_225_600_456L);
        Payment never = pix.payment(payer, pix.customer(payeeBank, 0), 70);
        pix.settlement.reserve(List.of(interbank, onUs));

        Map<PaymentId, Payment> found = pix.settlement.reservedPayments(List.of(interbank.id(), onUs.id(), never.id()));
        assertThat(found).containsOnly(Map.entry(interbank.id(), interbank), Map.entry(onUs.id(), onUs));
        pix.settlement.post(List.of(interbank));
        assertThat(pix.settlement.reservedPayments(List.of(interbank.id())))
                .as("posted, still the same payment")
                .containsOnly(Map.entry(interbank.id(), interbank));
        assertMoneyInvariants();
    }

    private static Payment withAcceptedAt(Payment payment, long acceptedAtMillis) {
        return new Payment(payment.id(), payment.payer(), payment.payee(), payment.amountCentavos(), acceptedAtMillis);
    }

    @Test
    @DisplayName("PIX: after a crash, re-running reserve and post reports the same outcomes and moves the money once")
    void pixRerunAfterCrashIsIdempotent() {
        Pix pix = new Pix(60);
        BankId payerBank = pix.bank(1_000);
        BankId payeeBank = pix.bank(0);
        Id128 payer = pix.customer(payerBank, 500);
        Id128 payee = pix.customer(payeeBank, 0);
        Id128 onUsPayee = pix.customer(payerBank, 0);
        List<Payment> payments = List.of(pix.payment(payer, payee, 100), pix.payment(payer, onUsPayee, 50));

        List<ReservationOutcome> reserved = pix.settlement.reserve(payments);
        assertThat(reserved).containsExactly(new ReservationOutcome.Reserved(), new ReservationOutcome.Reserved());
        assertThat(pix.settlement.reserve(payments))
                .as("reserve re-run: reserved, by the earlier attempt")
                .containsExactly(new ReservationOutcome.Reserved(true), new ReservationOutcome.Reserved(true));
        assertThat(balances(payer)).isEqualTo(new Balances(150, 0, 0, 500));

        List<ResolutionOutcome> posted = pix.settlement.post(payments);
        assertThat(posted).containsExactly(new ResolutionOutcome.Posted(), new ResolutionOutcome.Posted());
        assertThat(pix.settlement.post(payments)).as("post re-run").isEqualTo(posted);
        assertThat(pix.settlement.reserve(payments))
                .as("reserve re-run after posting: reserved earlier")
                .containsExactly(new ReservationOutcome.Reserved(true), new ReservationOutcome.Reserved(true));

        assertThat(lookupAccount(payer).creditBalancePosted()).isEqualTo(350);
        assertThat(lookupAccount(payee).creditBalancePosted()).isEqualTo(100);
        assertThat(lookupAccount(onUsPayee).creditBalancePosted()).isEqualTo(50);
        assertMoneyInvariants();
        assertNothingPending();
    }

    @Test
    @Timeout(30)
    @DisplayName("PIX: a payment neither posted nor voided in time expires: nothing moves and posting reports Expired")
    void pixPaymentExpires() throws InterruptedException {
        Pix pix = new Pix(1);
        BankId payerBank = pix.bank(1_000);
        BankId payeeBank = pix.bank(0);
        Id128 payer = pix.customer(payerBank, 100);
        Id128 payee = pix.customer(payeeBank, 0);
        Payment payment = pix.payment(payer, payee, 100);
        Map<Id128, Balances> before = balancesOfAll();
        long reservedAt = System.nanoTime();
        assertThat(pix.settlement.reserve(List.of(payment))).containsExactly(new ReservationOutcome.Reserved());

        sleepUntil(reservedAt + Duration.ofMillis(1_300).toNanos());
        assertThat(pix.settlement.post(List.of(payment))).containsExactly(new ResolutionOutcome.Expired());
        assertThat(pix.settlement.voidAll(List.of(payment), VoidCause.UNANSWERED))
                .containsExactly(new ResolutionOutcome.Expired());
        awaitTrue(() -> balancesOfAll().equals(before), Duration.ofSeconds(5));
        assertThat(balancesOfAll()).isEqualTo(before);
        assertMoneyInvariants();
    }

    @Test
    @DisplayName(
            "PIX: registering a bank twice answers EXISTS for the reserve, which fails the rest of the linked pair")
    void pixBankRegistrationRetry() {
        Pix pix = new Pix(60);
        BankId bank = pix.bank(0);
        assertThat(pix.participants.registerBank(bank))
                .containsExactly(AccountResult.EXISTS, AccountResult.LINKED_EVENT_FAILED);
        assertThat(pix.participants.openCustomers(bank, List.of(1L, 1L)))
                .containsExactly(AccountResult.OK, AccountResult.EXISTS);
        track(ChartOfAccounts.customer(bank, 1));
        AccountResult first = pix.participants.openCentralBank();
        assertThat(first.isSuccess()).as("opening the central bank: %s", first).isTrue();
        assertThat(pix.participants.openCentralBank()).isEqualTo(AccountResult.EXISTS);
        assertMoneyInvariants();
    }

    // =============================================================================================
    // Returns (devolução): a settled payment sent back, in part or whole, never beyond its amount

    @Test
    @DisplayName(
            "PIX return: a settled payment returned whole moves the money back through the reserves and uses up its returnable amount")
    void pixFullReturnMovesTheMoneyBack() {
        Pix pix = new Pix(60);
        BankId payerBank = pix.bank(1_000);
        BankId payeeBank = pix.bank(1_000);
        Id128 payer = pix.customer(payerBank, 500);
        Id128 payee = pix.customer(payeeBank, 50); // so that only the returnable amount can refuse a second return
        Payment original = pix.settled(pix.payment(payer, payee, 120));
        Map<Id128, Balances> afterOriginal = balancesOfAll();

        Payment refund = pix.returnOf(original, 120);
        assertThat(pix.settlement.reserve(List.of(refund))).containsExactly(new ReservationOutcome.Reserved());
        assertThat(returnable(original)).as("pending: counted as used").isEqualTo(new Balances(120, 0, 0, 120));
        assertThat(pix.settlement.post(List.of(refund))).containsExactly(new ResolutionOutcome.Posted());

        assertThat(lookupAccount(payer).creditBalancePosted()).isEqualTo(500);
        assertThat(lookupAccount(payee).creditBalancePosted()).isEqualTo(50);
        assertThat(lookupAccount(ChartOfAccounts.reserve(payerBank)).creditBalancePosted())
                .as("back to its funding")
                .isEqualTo(1_000);
        assertThat(balances(ChartOfAccounts.reserve(payeeBank)).creditsPosted())
                .as("as received, no more")
                .isEqualTo(afterOriginal.get(ChartOfAccounts.reserve(payeeBank)).creditsPosted());
        assertThat(returnable(original)).isEqualTo(new Balances(0, 120, 0, 120));
        assertThat(pix.settlement.reserve(List.of(pix.returnOf(original, 1))))
                .as("nothing left to return")
                .containsExactly(
                        new ReservationOutcome.Refused(RefusalReason.RETURN_EXCEEDS_RETURNABLE, 4, EXCEEDS_CREDITS));
        assertMoneyInvariants();
        assertNothingPending();
    }

    @Test
    @DisplayName(
            "PIX return: partial returns add up to the amount; one centavo more is refused by the ledger, nothing moves")
    void pixPartialReturnsUpToTheAmount() {
        Pix pix = new Pix(60);
        BankId payerBank = pix.bank(1_000);
        BankId payeeBank = pix.bank(1_000);
        Id128 payer = pix.customer(payerBank, 500);
        Id128 payee = pix.customer(payeeBank, 50);
        Payment original = pix.settled(pix.payment(payer, payee, 100));

        pix.settled(pix.returnOf(original, 60));
        pix.settled(pix.returnOf(original, 39));
        Map<Id128, Balances> before = balancesOfAll();
        assertThat(pix.settlement.reserve(List.of(pix.returnOf(original, 2))))
                .as("one centavo over")
                .containsExactly(
                        new ReservationOutcome.Refused(RefusalReason.RETURN_EXCEEDS_RETURNABLE, 4, EXCEEDS_CREDITS));
        assertThat(balancesOfAll()).isEqualTo(before);
        pix.settled(pix.returnOf(original, 1));
        assertThat(returnable(original)).isEqualTo(new Balances(0, 100, 0, 100));
        assertThat(lookupAccount(payer).creditBalancePosted()).isEqualTo(500);
        assertThat(lookupAccount(payee).creditBalancePosted()).isEqualTo(50);
        assertMoneyInvariants();
        assertNothingPending();
    }

    @Test
    @DisplayName(
            "PIX return: two returns racing for the remainder, in one batch or from two threads: exactly one reserves")
    void pixRacingReturnsOneReserves() throws Exception {
        Pix pix = new Pix(60);
        BankId payerBank = pix.bank(1_000);
        BankId payeeBank = pix.bank(1_000);
        Id128 payer = pix.customer(payerBank, 500);
        Id128 payee = pix.customer(payeeBank, 500);
        Payment inOneBatch = pix.settled(pix.payment(payer, payee, 100));
        assertThat(pix.settlement.reserve(List.of(pix.returnOf(inOneBatch, 70), pix.returnOf(inOneBatch, 70))))
                .containsExactly(
                        new ReservationOutcome.Reserved(),
                        new ReservationOutcome.Refused(RefusalReason.RETURN_EXCEEDS_RETURNABLE, 4, EXCEEDS_CREDITS));

        Payment fromTwoThreads = pix.settled(pix.payment(payer, payee, 100));
        Payment first = pix.returnOf(fromTwoThreads, 70);
        Payment second = pix.returnOf(fromTwoThreads, 70);
        List<List<ReservationOutcome>> raced = race(
                List.of(() -> pix.settlement.reserve(List.of(first)), () -> pix.settlement.reserve(List.of(second))));
        assertThat(raced.stream().flatMap(List::stream).filter(ReservationOutcome.Reserved.class::isInstance))
                .as("%s", raced)
                .hasSize(1);
        assertThat(raced.stream()
                        .flatMap(List::stream)
                        .filter(outcome -> outcome.equals(new ReservationOutcome.Refused(
                                RefusalReason.RETURN_EXCEEDS_RETURNABLE, 4, EXCEEDS_CREDITS))))
                .hasSize(1);
        assertThat(returnable(fromTwoThreads)).isEqualTo(new Balances(70, 0, 0, 100));
        assertMoneyInvariants();
    }

    @Test
    @DisplayName("PIX return: a return voided (refused) releases its amount, which is returnable again")
    void pixVoidedReturnReleasesItsAmount() {
        Pix pix = new Pix(60);
        BankId payerBank = pix.bank(1_000);
        BankId payeeBank = pix.bank(1_000);
        Id128 payer = pix.customer(payerBank, 500);
        Id128 payee = pix.customer(payeeBank, 0);
        Payment original = pix.settled(pix.payment(payer, payee, 100));
        Payment refused = pix.returnOf(original, 100);
        Map<Id128, Balances> before = balancesOfAll();
        assertThat(pix.settlement.reserve(List.of(refused))).containsExactly(new ReservationOutcome.Reserved());

        assertThat(pix.settlement.voidAll(List.of(refused), VoidCause.RECEIVING_BANK_REFUSED))
                .containsExactly(new ResolutionOutcome.Voided(VoidCause.RECEIVING_BANK_REFUSED));
        assertThat(returnable(original)).isEqualTo(new Balances(0, 0, 0, 100));
        assertThat(balancesOfAll()).as("nothing moved").isEqualTo(before);
        pix.settled(pix.returnOf(original, 100));
        assertThat(lookupAccount(payer).creditBalancePosted()).isEqualTo(500);
        assertMoneyInvariants();
        assertNothingPending();
    }

    @Test
    @Timeout(30)
    @DisplayName("PIX return: a return never answered expires, and its amount is returnable again")
    void pixExpiredReturnReleasesItsAmount() throws InterruptedException {
        Pix quick = new Pix(1);
        BankId payerBank = quick.bank(1_000);
        BankId payeeBank = quick.bank(1_000);
        Id128 payer = quick.customer(payerBank, 500);
        Id128 payee = quick.customer(payeeBank, 0);
        Payment original = quick.settled(quick.payment(payer, payee, 100));
        Payment unanswered = quick.returnOf(original, 100);
        long reservedAt = System.nanoTime();
        assertThat(quick.settlement.reserve(List.of(unanswered))).containsExactly(new ReservationOutcome.Reserved());

        sleepUntil(reservedAt + Duration.ofMillis(1_300).toNanos());
        assertThat(quick.settlement.post(List.of(unanswered))).containsExactly(new ResolutionOutcome.Expired());
        awaitTrue(() -> returnable(original).equals(new Balances(0, 0, 0, 100)), Duration.ofSeconds(5));
        assertThat(new Pix(60).settlement.reserve(List.of(quick.returnOf(original, 100))))
                .containsExactly(new ReservationOutcome.Reserved());
        assertMoneyInvariants();
    }

    @Test
    @DisplayName(
            "PIX return: an on-us payment returns on one leg and its returnable amount (leg 2); a reserved return reads back with its original")
    void pixOnUsReturnAndReadBack() {
        Pix pix = new Pix(60);
        BankId bank = pix.bank(1_000);
        Id128 payer = pix.customer(bank, 400);
        Id128 payee = pix.customer(bank, 0);
        Payment original = pix.settled(pix.payment(payer, payee, 300));
        Payment onUs = pix.returnOf(original, 100);
        assertThat(pix.settlement.reserve(List.of(onUs))).containsExactly(new ReservationOutcome.Reserved());
        assertThat(lookupTransfer(LegId.of(onUs.id(), LegId.Phase.PENDING, 2)).debitAccountId())
                .isEqualTo(ChartOfAccounts.returnable(original.id()));

        Payment interbankOriginal = pix.settled(pix.payment(payer, pix.customer(pix.bank(1_000), 0), 50));
        Payment interbank = pix.returnOf(interbankOriginal, 50);
        pix.settlement.reserve(List.of(interbank));
        Map<PaymentId, Payment> found = pix.settlement.reservedPayments(List.of(onUs.id(), interbank.id()));
        assertThat(found).containsOnly(Map.entry(onUs.id(), onUs), Map.entry(interbank.id(), interbank));
        assertThat(found.get(interbank.id()).returnOf().original()).isEqualTo(interbankOriginal.id());
        assertThat(found.get(interbank.id()).returnOf().reasonNumber())
                .as("the reason, kept in the ledger")
                .isEqualTo(3);
        assertThat(pix.settlement.post(List.of(onUs, interbank)))
                .containsExactly(new ResolutionOutcome.Posted(), new ResolutionOutcome.Posted());
        assertThat(lookupAccount(payer).creditBalancePosted())
                .as("400 - 300 + 100 - 50 + 50")
                .isEqualTo(200);
        assertMoneyInvariants();
        assertNothingPending();
    }

    @Test
    @DisplayName(
            "PIX return: a second opening of one original with another amount is an integrity alarm, never reserved")
    void pixOpeningWithAnotherAmountIsAnAlarm() {
        Pix pix = new Pix(60);
        BankId payerBank = pix.bank(1_000);
        BankId payeeBank = pix.bank(1_000);
        Payment original = pix.settled(pix.payment(pix.customer(payerBank, 100), pix.customer(payeeBank, 0), 100));
        pix.settled(pix.returnOf(original, 10));
        Payment lying = new Payment(
                pix.ids.nextPaymentId(),
                original.payee(),
                original.payer(),
                10,
                0,
                new Payment.ReturnOf(original.id(), 1_000, 1));
        assertThat(pix.settlement.reserve(List.of(lying)))
                .containsExactly(new ReservationOutcome.IntegrityAlarm(0, EXISTS_WITH_DIFFERENT_AMOUNT));
        assertThat(returnable(original)).isEqualTo(new Balances(0, 10, 0, 100));
        assertMoneyInvariants();
    }

    private Balances returnable(Payment original) {
        return balances(ChartOfAccounts.returnable(original.id()));
    }

    /**
     * A PIX world for one test: banks with random ISPBs, reserves funded from the test's own issuer
     * (standing in for the central bank, which a shared ledger holds only once), customers funded by
     * their bank's transit account.
     */
    // =============================================================================================
    // MED 2.0: tracing a reported payment's money and holding it (docs/med.md)

    static final TraceLimits TRACE_LIMITS = new TraceLimits(3, 32, 32);

    /** Victim → f1, who keeps 100 and moves the rest on: three hops, four banks, on-us and interbank. */
    private record Scam(Pix pix, Payment fraud, Id128 f1, Id128 f2, Id128 f3, Id128 f4, Id128 f5, Id128 f6, long cut) {}

    private Scam scam() {
        Pix pix = new Pix(60);
        BankId a = pix.bank(100_000);
        BankId b = pix.bank(100_000);
        BankId c = pix.bank(100_000);
        BankId d = pix.bank(100_000);
        Id128 victim = pix.customer(a, 5_000);
        Id128 f1 = pix.customer(b, 0);
        Id128 f2 = pix.customer(c, 0);
        Id128 f3 = pix.customer(b, 0);
        Id128 f4 = pix.customer(d, 0);
        Id128 f5 = pix.customer(a, 0);
        Id128 f6 = pix.customer(a, 0);
        Payment fraud = pix.settled(pix.payment(victim, f1, 1_000));
        pix.settled(pix.payment(f1, f2, 600));
        pix.settled(pix.payment(f1, f3, 300)); // on-us at bank b
        pix.settled(pix.payment(f2, f4, 500));
        pix.settled(pix.payment(f3, f5, 300));
        Payment last = pix.settled(pix.payment(f4, f6, 200));
        long cut = lookupTransfer(LegId.of(last.id(), LegId.Phase.POST, 3)).timestamp();
        return new Scam(pix, fraud, f1, f2, f3, f4, f5, f6, cut);
    }

    /** The fraud holds accounts a trace's holds credit: in the books the invariants sum. */
    private void trackHolds(FundsTrace trace) {
        trace.nodes().stream()
                .filter(node -> node.heldCentavos() > 0)
                .map(node -> ChartOfAccounts.fraudHolds(
                        ChartOfAccounts.bankOf(node.account()).orElseThrow()))
                .distinct()
                .forEach(this::track);
    }

    @Test
    @DisplayName("MED: a report's trace follows the money three hops, holds what each account has, in 14 requests")
    void medTraceHoldsTheMoneyWhereItWent() {
        Scam scam = scam();
        PaymentId report = scam.pix().ids.nextPaymentId();
        HoldingFunds holding = new HoldingFunds(ledger);

        HoldingFunds.Filed filed = holding.file(report, scam.fraud().id(), scam.cut(), TRACE_LIMITS, 3_600);
        FundsTrace trace = filed.trace();
        trackHolds(trace);
        assertThat(trace.nodes())
                .extracting(
                        FundsTrace.Node::account,
                        FundsTrace.Node::hop,
                        FundsTrace.Node::tracedCentavos,
                        FundsTrace.Node::heldCentavos)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(scam.f1(), 0, 1_000L, 100L),
                        org.assertj.core.groups.Tuple.tuple(scam.f2(), 1, 600L, 100L),
                        org.assertj.core.groups.Tuple.tuple(scam.f3(), 1, 300L, 0L),
                        org.assertj.core.groups.Tuple.tuple(scam.f4(), 2, 500L, 300L),
                        org.assertj.core.groups.Tuple.tuple(scam.f5(), 2, 300L, 300L),
                        org.assertj.core.groups.Tuple.tuple(scam.f6(), 3, 200L, 200L));
        assertThat(trace.heldCentavos()).as("all of it found").isEqualTo(1_000);
        assertThat(trace.truncated()).isFalse();
        assertThat(filed.ledgerRequests())
                .as("its holds, the payment's legs, 4 balance reads, 4 account histories, 3 landing reads, holds'"
                        + " accounts, holds")
                .isEqualTo(15);
        assertThat(balances(scam.f4())).isEqualTo(new Balances(300, 200, 0, 500));
        assertThat(lookupAccount(scam.f6()).creditBalanceAvailable())
                .as("held: not spendable")
                .isZero();

        // The customer cannot spend held money: a payment of it is refused by the ledger.
        Id128 elsewhere = scam.pix().customer(ChartOfAccounts.bankOf(scam.f1()).orElseThrow(), 0);
        Payment spend = scam.pix().payment(scam.f4(), elsewhere, 1);
        assertThat(scam.pix().settlement.reserve(List.of(spend)))
                .singleElement()
                .isInstanceOfSatisfying(
                        ReservationOutcome.Refused.class,
                        refused -> assertThat(refused.reason()).isEqualTo(RefusalReason.INSUFFICIENT_FUNDS));

        assertThat(holding.rebuild(report, scam.fraud().id(), scam.cut(), TRACE_LIMITS))
                .as("rebuilt from the ledger alone")
                .isEqualTo(trace);
        assertThat(holding.file(report, scam.fraud().id(), scam.cut(), TRACE_LIMITS, 3_600)
                        .trace())
                .as("filed again: the same holds, taken once")
                .isEqualTo(trace);
        assertThat(balances(scam.f4())).isEqualTo(new Balances(300, 200, 0, 500));
        assertMoneyInvariants();

        assertThat(holding.release(report, trace))
                .containsOnly(HoldingFunds.Released.RELEASED)
                .hasSize(5);
        assertThat(holding.release(report, trace)).containsOnly(HoldingFunds.Released.ALREADY_RELEASED);
        assertThat(lookupAccount(scam.f4()).creditBalanceAvailable()).isEqualTo(300);
        assertMoneyInvariants();
        assertNothingPending();
    }

    @Test
    @DisplayName("MED: two reports racing for the same account hold no more than it has, together")
    void medTwoReportsShareWhatIsThere() {
        Pix pix = new Pix(60);
        BankId a = pix.bank(100_000);
        BankId b = pix.bank(100_000);
        Id128 victim1 = pix.customer(a, 1_000);
        Id128 victim2 = pix.customer(a, 1_000);
        Id128 mule = pix.customer(b, 0);
        Id128 out = pix.customer(a, 0);
        Payment first = pix.settled(pix.payment(victim1, mule, 800));
        Payment second = pix.settled(pix.payment(victim2, mule, 700));
        Payment away = pix.settled(pix.payment(mule, out, 1_000)); // 500 left at the mule
        long cut = lookupTransfer(LegId.of(away.id(), LegId.Phase.POST, 3)).timestamp();
        HoldingFunds holding = new HoldingFunds(ledger);

        HoldingFunds.Filed filedOne = holding.file(pix.ids.nextPaymentId(), first.id(), cut, TRACE_LIMITS, 3_600);
        HoldingFunds.Filed filedTwo = holding.file(pix.ids.nextPaymentId(), second.id(), cut, TRACE_LIMITS, 3_600);
        FundsTrace one = filedOne.trace();
        FundsTrace two = filedTwo.trace();
        assertThat(filedOne.ledgerRequests())
                .as("its holds, the legs, 2 balance reads, the mule's history, the landing, holds' accounts, holds")
                .isEqualTo(8);
        assertThat(filedTwo.ledgerRequests())
                .as("the same walk; the holds' accounts known open: no request for them")
                .isEqualTo(7);
        trackHolds(one);
        trackHolds(two);
        long heldAtMule =
                one.nodes().getFirst().heldCentavos() + two.nodes().getFirst().heldCentavos();
        assertThat(heldAtMule).as("what the mule had").isEqualTo(500);
        assertThat(one.heldCentavos() + two.heldCentavos())
                .as("the rest found downstream")
                .isEqualTo(1_500);
        assertThat(lookupAccount(out).creditBalanceAvailable()).isZero();
        assertMoneyInvariants();
    }

    @Test
    @DisplayName("MED: nobody decides, the holds lapse by themselves and the money is spendable again")
    void medHoldsLapse() throws InterruptedException {
        Scam scam = scam();
        HoldingFunds holding = new HoldingFunds(ledger);
        PaymentId report = scam.pix().ids.nextPaymentId();
        FundsTrace trace = holding.file(report, scam.fraud().id(), scam.cut(), TRACE_LIMITS, 1)
                .trace();
        assertThat(lookupAccount(scam.f6()).creditBalanceAvailable()).isZero();
        Thread.sleep(2_500);
        Id128 elsewhere = scam.pix().customer(ChartOfAccounts.bankOf(scam.f6()).orElseThrow(), 0);
        scam.pix().settled(scam.pix().payment(scam.f6(), elsewhere, 200));
        assertThat(holding.release(report, trace)).containsOnly(HoldingFunds.Released.EXPIRED);
        assertThat(holding.refund(report, refundsOf(report, scam.fraud(), trace), 60))
                .as("a lapsed hold refunds nothing")
                .containsOnly(RefundOutcome.HOLD_LAPSED);
        assertMoneyInvariants();
        assertNothingPending();
    }

    @Test
    @DisplayName("MED: what the fraudster returned to the victim is neither followed nor held")
    void medReturnsOfTheReportedPaymentAreNotFollowed() {
        Pix pix = new Pix(60);
        BankId a = pix.bank(100_000);
        BankId b = pix.bank(100_000);
        Id128 victim = pix.customer(a, 1_000);
        Id128 f1 = pix.customer(b, 0);
        Id128 f2 = pix.customer(a, 0);
        Payment fraud = pix.settled(pix.payment(victim, f1, 1_000));
        pix.settled(pix.returnOf(fraud, 400));
        Payment away = pix.settled(pix.payment(f1, f2, 500));
        // The returnable and returns control accounts are left out, as every return test here leaves them: returns
        // control is the whole ledger's, so the other tests' returns are on it.
        long cut = lookupTransfer(LegId.of(away.id(), LegId.Phase.POST, 3)).timestamp();

        FundsTrace trace = new HoldingFunds(ledger)
                .file(pix.ids.nextPaymentId(), fraud.id(), cut, TRACE_LIMITS, 3_600)
                .trace();
        trackHolds(trace);
        assertThat(trace.nodes())
                .extracting(FundsTrace.Node::account, FundsTrace.Node::tracedCentavos, FundsTrace.Node::heldCentavos)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(f1, 1_000L, 100L),
                        org.assertj.core.groups.Tuple.tuple(f2, 500L, 500L));
        assertThat(lookupAccount(victim).creditBalanceAvailable())
                .as("the victim's refund is the victim's")
                .isEqualTo(400);
        assertMoneyInvariants();
    }

    @Test
    @DisplayName("MED: a plan is held as planned; a hold refused because the money was spent meanwhile holds nothing")
    void medARefusedHoldHoldsNothingAndTheRestStands() {
        Scam scam = scam();
        HoldingFunds holding = new HoldingFunds(ledger);
        PaymentId report = scam.pix().ids.nextPaymentId();
        FundsTrace planned = holding.plan(scam.fraud().id(), scam.cut(), TRACE_LIMITS);
        // f6 spends what the plan would hold there before the holds are taken.
        Id128 elsewhere = scam.pix().customer(ChartOfAccounts.bankOf(scam.f6()).orElseThrow(), 0);
        scam.pix().settled(scam.pix().payment(scam.f6(), elsewhere, 150));

        FundsTrace held = holding.hold(report, planned, 3_600);
        trackHolds(held);
        assertThat(held.nodes()).hasSameSizeAs(planned.nodes());
        assertThat(held.nodes().getLast().heldCentavos())
                .as("f6: refused, nothing held")
                .isZero();
        assertThat(held.heldCentavos()).isEqualTo(800);
        assertThat(holding.hold(report, planned, 3_600))
                .as("taken again: the same holds, the refused one refused again (id_already_failed)")
                .isEqualTo(held);
        assertThat(lookupAccount(scam.f6()).creditBalanceAvailable()).isEqualTo(50);
        assertMoneyInvariants();
    }

    /** The refunds of every hold of {@code trace}, each of what it holds, to the reported payment's payer. */
    private static List<HoldingFunds.Refund> refundsOf(PaymentId report, Payment fraud, FundsTrace trace) {
        return trace.nodes().stream()
                .filter(node -> node.heldCentavos() > 0)
                .map(node -> new HoldingFunds.Refund(
                        node.position(),
                        new Payment(
                                HoldIds.refund(report, node.position()),
                                node.account(),
                                fraud.payer(),
                                node.heldCentavos(),
                                0,
                                new Payment.ReturnOf(fraud.id(), fraud.amountCentavos(), 2))))
                .toList();
    }

    @Test
    @DisplayName("MED: a refund frees each hold and reserves its return in one chain; clearing settles it, once")
    void medRefundPaysTheVictimFromTheHolds() {
        Scam scam = scam();
        HoldingFunds holding = new HoldingFunds(ledger);
        PaymentId report = scam.pix().ids.nextPaymentId();
        FundsTrace trace = holding.file(report, scam.fraud().id(), scam.cut(), TRACE_LIMITS, 3_600)
                .trace();
        trackHolds(trace);
        Id128 victim = scam.fraud().payer();
        long victimBefore = lookupAccount(victim).creditBalancePosted();
        List<HoldingFunds.Refund> refunds = refundsOf(report, scam.fraud(), trace);
        List<Payment> returns =
                refunds.stream().map(HoldingFunds.Refund::payment).toList();

        assertThat(holding.refund(report, refunds, 60)).hasSize(5).containsOnly(RefundOutcome.RESERVED);
        assertThat(balances(scam.f4()))
                .as("the hold freed, the refund pending in its place")
                .isEqualTo(new Balances(300, 200, 0, 500));
        assertThat(scam.pix().settlement.reserve(returns))
                .as("clearing finds each refund reserved")
                .containsOnly(new ReservationOutcome.Reserved(true));
        assertThat(scam.pix().settlement.post(returns)).containsOnly(new ResolutionOutcome.Posted());
        assertThat(lookupAccount(victim).creditBalancePosted() - victimBefore)
                .as("all of it back")
                .isEqualTo(1_000);
        assertThat(balances(ChartOfAccounts.returnable(scam.fraud().id())))
                .as("the payment is returned whole")
                .isEqualTo(new Balances(0, 1_000, 0, 1_000));

        Map<Id128, Balances> settled = balancesOfAll();
        assertThat(holding.refund(report, refunds, 60))
                .as("asked again: reserved before, nothing moves")
                .containsOnly(RefundOutcome.RESERVED);
        assertThat(holding.release(report, trace))
                .as("the refunds freed them")
                .containsOnly(HoldingFunds.Released.ALREADY_RELEASED);
        assertThat(balancesOfAll()).isEqualTo(settled);
        assertMoneyInvariants();
        assertNothingPending();
    }

    @Test
    @DisplayName(
            "MED: a refund racing a plain return: the ledger pays the victim once; the refused refund's hold stands")
    void medRefundRacingAPlainReturnPaysOnce() {
        Pix pix = new Pix(60);
        BankId a = pix.bank(100_000);
        BankId b = pix.bank(100_000);
        Id128 victim = pix.customer(a, 1_000);
        Id128 mule = pix.customer(b, 1_000);
        Payment fraud = pix.settled(pix.payment(victim, mule, 1_000));
        long cut = lookupTransfer(LegId.of(fraud.id(), LegId.Phase.POST, 3)).timestamp();
        HoldingFunds holding = new HoldingFunds(ledger);
        PaymentId report = pix.ids.nextPaymentId();
        FundsTrace trace =
                holding.file(report, fraud.id(), cut, TRACE_LIMITS, 3_600).trace();
        trackHolds(trace);
        assertThat(trace.heldCentavos()).isEqualTo(1_000);
        // The mule's bank returns the payment from the mule's own money first.
        Payment plain = pix.returnOf(fraud, 1_000);
        assertThat(pix.settlement.reserve(List.of(plain))).containsExactly(new ReservationOutcome.Reserved());

        assertThat(holding.refund(report, refundsOf(report, fraud, trace), 60))
                .containsExactly(RefundOutcome.RETURN_EXCEEDS_RETURNABLE);
        assertThat(balances(mule))
                .as("the hold stands, the plain return pending")
                .isEqualTo(new Balances(2_000, 0, 0, 2_000));
        assertThat(pix.settlement.post(List.of(plain))).containsExactly(new ResolutionOutcome.Posted());
        assertThat(holding.release(report, trace)).containsExactly(HoldingFunds.Released.RELEASED);
        assertThat(lookupAccount(victim).creditBalancePosted())
                .as("paid back once")
                .isEqualTo(1_000);
        assertThat(lookupAccount(mule).creditBalanceAvailable()).isEqualTo(1_000);
        assertThat(holding.refund(report, refundsOf(report, fraud, trace), 60))
                .as("after the release, nothing to refund")
                .containsExactly(RefundOutcome.HOLD_RELEASED);
        assertMoneyInvariants();
        assertNothingPending();
    }

    @Test
    @DisplayName("MED: an unsettled payment has nothing to trace")
    void medUnsettledPaymentIsNotTraced() {
        Pix pix = new Pix(60);
        BankId a = pix.bank(100_000);
        Payment pending = pix.payment(pix.customer(a, 100), pix.customer(pix.bank(0), 0), 50);
        assertThat(pix.settlement.reserve(List.of(pending))).containsExactly(new ReservationOutcome.Reserved());
        HoldingFunds holding = new HoldingFunds(ledger);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> holding.file(pix.ids.nextPaymentId(), pending.id(), Long.MAX_VALUE - 1, TRACE_LIMITS, 60))
                .isInstanceOf(TracingFunds.NotSettled.class);
        pix.settlement.voidAll(List.of(pending), VoidCause.RECEIVING_BANK_REFUSED);
        assertMoneyInvariants();
    }

    protected final class Pix {
        final Participants participants = new Participants(ledger);
        final Settlement settlement;
        final TimeOrderedIds ids = new TimeOrderedIds();
        private long nextCustomer = 1;

        Pix(int pendingTimeoutSeconds) {
            settlement = new Settlement(ledger, pendingTimeoutSeconds);
        }

        BankId bank(long reserve) {
            BankId bank;
            do {
                bank = new BankId(1 + RANDOM.nextInt(BankId.ISPB_MAX));
            } while (!ledger.lookupAccounts(List.of(ChartOfAccounts.reserve(bank)))
                    .isEmpty());
            assertThat(participants.registerBank(bank)).containsExactly(AccountResult.OK, AccountResult.OK);
            track(ChartOfAccounts.reserve(bank));
            track(ChartOfAccounts.transit(bank));
            if (reserve > 0) {
                assertThat(create(NewTransfer.posted(
                                newId(),
                                issuer(),
                                ChartOfAccounts.reserve(bank),
                                reserve,
                                ChartOfAccounts.LEDGER_BRL,
                                TransferCode.RESERVE_FUNDING,
                                Id128.ZERO)))
                        .isEqualTo(OK);
            }
            return bank;
        }

        Id128 customer(BankId bank, long balance) {
            long number = nextCustomer++;
            assertThat(participants.openCustomers(bank, List.of(number))).containsExactly(AccountResult.OK);
            Id128 customer = ChartOfAccounts.customer(bank, number);
            track(customer);
            if (balance > 0) {
                assertThat(participants.fundCustomer(newId(), customer, balance))
                        .isEqualTo(OK);
            }
            return customer;
        }

        Payment payment(Id128 payer, Id128 payee, long amount) {
            return new Payment(ids.nextPaymentId(), payer, payee, amount);
        }

        /** A return of {@code amount} of {@code original}: from its payee back to its payer. */
        Payment returnOf(Payment original, long amount) {
            return new Payment(
                    ids.nextPaymentId(),
                    original.payee(),
                    original.payer(),
                    amount,
                    0,
                    new Payment.ReturnOf(original.id(), original.amountCentavos(), 3));
        }

        /** Reserves and posts {@code payment}, asserting both. */
        Payment settled(Payment payment) {
            assertThat(settlement.reserve(List.of(payment))).containsExactly(new ReservationOutcome.Reserved());
            assertThat(settlement.post(List.of(payment))).containsExactly(new ResolutionOutcome.Posted());
            return payment;
        }

        /** The issuer must be on the BRL ledger to fund reserves. */
        private Id128 issuer() {
            if (pixIssuer == null) {
                pixIssuer = account(ChartOfAccounts.LEDGER_BRL, NO_LIMIT);
            }
            return pixIssuer;
        }

        private Id128 pixIssuer;
    }
}
