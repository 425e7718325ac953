package io.pagora.payments.api.domain;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.settlement.domain.AccountKind;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.PixId;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;

/**
 * The checks a well-formed payment must pass before it is accepted. Split in two so a batch can run
 * every check that needs no I/O first, then look all remaining accounts up in one ledger request.
 */
public final class PaymentRules {

    /** How far ahead of the switch's clock a bank's clock may name the minute of an end-to-end id. */
    public static final Duration PIX_ID_CLOCK_AHEAD_MAX = Duration.ofMinutes(5);

    private final long amountMaxCentavos;
    private final int pixIdDaysMax;

    /**
     * @param pixIdDaysMax the UTC days, today included, whose end-to-end ids are accepted: the days the switch
     *     keeps claimed ids (the idempotency retention), so an older id, which could no longer be checked for reuse,
     *     is refused instead of trusted
     */
    public PaymentRules(long amountMaxCentavos, int pixIdDaysMax) {
        Check.that(amountMaxCentavos > 0, "amount max must be positive: %d", amountMaxCentavos);
        Check.that(pixIdDaysMax >= 1, "PIX ids of at least today are accepted: %d", pixIdDaysMax);
        this.amountMaxCentavos = amountMaxCentavos;
        this.pixIdDaysMax = pixIdDaysMax;
    }

    public long amountMaxCentavos() {
        return amountMaxCentavos;
    }

    /** Everything that can be decided from the request alone. */
    public Optional<Refusal> checkRequest(PaymentRequest request) {
        if (request.amountCentavos() <= 0) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.INVALID_AMOUNT,
                    "amountCentavos",
                    "amountCentavos must be a positive integer, got " + request.amountCentavos()));
        }
        if (request.amountCentavos() > amountMaxCentavos) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.AMOUNT_ABOVE_LIMIT,
                    "amountCentavos",
                    "amountCentavos must be at most " + amountMaxCentavos + ", got " + request.amountCentavos()));
        }
        if (request.payer().equals(request.payee())) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.SAME_PAYER_AND_PAYEE,
                    "payeeAccountId",
                    "payer and payee are the same account " + request.payer()));
        }
        // Account ids encode their kind: no lookup is needed to refuse a bank or central-bank account.
        if (!ChartOfAccounts.isCustomer(request.payer())) {
            return Optional.of(notCustomer("payerAccountId", request.payer()));
        }
        if (!ChartOfAccounts.isCustomer(request.payee())) {
            return Optional.of(notCustomer("payeeAccountId", request.payee()));
        }
        return Optional.empty();
    }

    /**
     * A bank's end-to-end id names that bank (the payer's) and a minute not ahead of the switch's clock. Its age is
     * {@link #checkEndToEndIdAge}'s, asked of new requests only: a replay is recognised by its key while the key is
     * kept, however old its id.
     */
    public Optional<Refusal> checkEndToEndId(PaymentRequest request, Instant now) {
        if (request.endToEndId() == null) {
            return Optional.empty();
        }
        PixId id = new PixId(request.endToEndId());
        RefusalReason invalid =
                request.isReturn() ? RefusalReason.INVALID_RETURN_ID : RefusalReason.INVALID_END_TO_END_ID;
        String field = pixIdField(request);
        BankId payerBank = ChartOfAccounts.bankOf(request.payer()).orElseThrow();
        if (!id.bank().equals(payerBank)) {
            return Optional.of(Refusal.ofField(
                    invalid,
                    field,
                    field + " " + id + " names bank " + id.bank() + ": it must be the id of the bank that sends it, "
                            + payerBank));
        }
        return id.timeProblem(Instant.EPOCH, now.plus(PIX_ID_CLOCK_AHEAD_MAX))
                .map(problem -> Refusal.ofField(invalid, field, field + " " + id + " " + problem));
    }

    /**
     * A new request's end-to-end id names a recent minute: ids are claimed for reuse checks for {@code pixIdDaysMax}
     * days, so an id of an earlier day could be a reuse nobody can see any more.
     */
    public Optional<Refusal> checkEndToEndIdAge(PaymentRequest request, Instant now) {
        if (request.endToEndId() == null) {
            return Optional.empty();
        }
        PixId id = new PixId(request.endToEndId());
        RefusalReason invalid =
                request.isReturn() ? RefusalReason.INVALID_RETURN_ID : RefusalReason.INVALID_END_TO_END_ID;
        String field = pixIdField(request);
        return id.timeProblem(oldestPixIdMinute(now), Instant.MAX)
                .map(problem -> Refusal.ofField(invalid, field, field + " " + id + " " + problem));
    }

    /** The field a request's PIX id is given in: a payment's endToEndId, a return's returnId. */
    public static String pixIdField(PaymentRequest request) {
        return request.isReturn() ? "returnId" : "endToEndId";
    }

    /** The start of the oldest UTC day whose PIX ids are still kept for reuse checks. */
    public Instant oldestPixIdMinute(Instant now) {
        return now.truncatedTo(ChronoUnit.DAYS).minus(Duration.ofDays(pixIdDaysMax - 1L));
    }

    /** The ledger's view: both accounts exist and are customer accounts in BRL. */
    public Optional<Refusal> checkAccounts(PaymentRequest request, AccountStatus payer, AccountStatus payee) {
        if (payer == AccountStatus.MISSING) {
            return Optional.of(unknownPayer(request));
        }
        if (payee == AccountStatus.MISSING) {
            return Optional.of(Refusal.ofField(
                    RefusalReason.UNKNOWN_ACCOUNT,
                    "payeeAccountId",
                    "payee account " + request.payee() + " does not exist"));
        }
        if (payer != AccountStatus.CUSTOMER) {
            return Optional.of(notCustomer("payerAccountId", request.payer()));
        }
        if (payee != AccountStatus.CUSTOMER) {
            return Optional.of(notCustomer("payeeAccountId", request.payee()));
        }
        return Optional.empty();
    }

    /**
     * The answer for a payer account that does not exist; also the answer for a payer account of another bank
     * than the caller's, so that a bank cannot tell another bank's customers from ids nobody holds.
     */
    public static Refusal unknownPayer(PaymentRequest request) {
        return Refusal.ofField(
                RefusalReason.UNKNOWN_ACCOUNT,
                "payerAccountId",
                "payer account " + request.payer() + " does not exist");
    }

    /** What the ledger says about an account id. */
    public enum AccountStatus {
        /** A customer account on the BRL ledger: may pay and be paid. */
        CUSTOMER,
        /** Exists, but is not a BRL customer account. */
        OTHER,
        MISSING;

        public static AccountStatus of(Account account) {
            if (account == null) {
                return MISSING;
            }
            return isCustomerInBrl(account) ? CUSTOMER : OTHER;
        }
    }

    public static boolean isCustomerInBrl(Account account) {
        return account.code() == AccountKind.CUSTOMER.code && account.ledger() == ChartOfAccounts.LEDGER_BRL;
    }

    private static Refusal notCustomer(String field, Id128 account) {
        return Refusal.ofField(
                RefusalReason.NOT_A_CUSTOMER_ACCOUNT,
                field,
                field + " " + account + " is not a customer account (payments move money between customers)");
    }
}
