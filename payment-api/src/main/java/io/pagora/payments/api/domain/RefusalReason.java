package io.pagora.payments.api.domain;

import java.net.URI;

/**
 * Every reason payment-api refuses a payment order or an administration request (an item of a batch included),
 * each with a stable RFC 9457 {@code type} URI ({@value #BASE}{@code <slug>}, service-support's scheme). Clients
 * branch on the type, never on the human-readable detail. What is only about HTTP (a body that cannot be read, an
 * unknown path, an outage met while answering) is the web adapter's: {@code adapter.web.HttpProblems}.
 */
public enum RefusalReason {
    MISSING_FIELD("missing-field", "Missing required field"),
    INVALID_FIELD("invalid-field", "Invalid field"),
    INVALID_ACCOUNT_ID("invalid-account-id", "Invalid account id"),
    INVALID_AMOUNT("invalid-amount", "Invalid amount"),
    AMOUNT_ABOVE_LIMIT("amount-above-limit", "Amount above the limit"),
    UNSUPPORTED_CURRENCY("unsupported-currency", "Unsupported currency"),
    SAME_PAYER_AND_PAYEE("same-payer-and-payee", "Payer and payee are the same account"),
    NOT_A_CUSTOMER_ACCOUNT("not-a-customer-account", "Not a customer account"),
    UNKNOWN_ACCOUNT("unknown-account", "Unknown account"),
    MISSING_IDEMPOTENCY_KEY("missing-idempotency-key", "Missing Idempotency-Key"),
    INVALID_IDEMPOTENCY_KEY("invalid-idempotency-key", "Invalid Idempotency-Key"),
    IDEMPOTENCY_KEY_REUSED("idempotency-key-reused", "Idempotency-Key reused with a different request"),
    /** Not a PIX end-to-end id, another bank's, too old to be checked for reuse, or from the future. */
    INVALID_END_TO_END_ID("invalid-end-to-end-id", "Invalid end-to-end id"),
    /** The payer's bank already used this end-to-end id for another payment. */
    END_TO_END_ID_REUSED("end-to-end-id-reused", "End-to-end id already names another payment"),
    /** Not a PIX return id, another bank's, too old to be checked for reuse, or from the future. */
    INVALID_RETURN_ID("invalid-return-id", "Invalid return id"),
    /** The returning bank already used this return id for another return. */
    RETURN_ID_REUSED("return-id-reused", "Return id already names another return"),
    /** Not one of the PIX return reasons (BE08, FR01, MD06, SL02). */
    INVALID_RETURN_REASON("invalid-return-reason", "Invalid return reason"),
    /** A payment is returned by its payee's bank only. */
    NOT_THE_PAYEES_BANK("not-the-payees-bank", "Only the payee's bank returns a payment"),
    /** The payment is not settled (still in flight, refused or expired): nothing to return. */
    PAYMENT_NOT_SETTLED("payment-not-settled", "Payment not settled"),
    /** The payment is itself a return: a return is not returned (the payer pays again). */
    RETURN_OF_A_RETURN("return-of-a-return", "A return cannot be returned"),
    /** The payment settled longer ago than the return window. */
    RETURN_WINDOW_CLOSED("return-window-closed", "Return window closed"),
    /** More than the payment's amount not yet returned (settled returns and returns in flight counted). */
    RETURN_EXCEEDS_RETURNABLE("return-exceeds-returnable", "Return exceeds the returnable amount"),
    IDEMPOTENCY_KEY_FAILED("idempotency-key-failed", "An earlier request with this Idempotency-Key failed"),
    UNKNOWN_BANK("unknown-bank", "Unknown bank"),
    /** {@code GET /banks/{ispb}}: no such bank, or one the caller may not read (the two read alike). */
    BANK_NOT_FOUND("bank-not-found", "Bank not found"),
    BANK_NAME_CONFLICT("bank-name-conflict", "Bank already registered under another name"),
    ACCOUNT_NOT_FOUND("account-not-found", "Account not found"),
    LEDGER_REFUSED("ledger-refused", "The ledger refused the operation"),
    LEDGER_CONFLICT("ledger-conflict", "The ledger holds conflicting data"),
    BROKER_UNAVAILABLE("broker-unavailable", "Message broker unavailable"),
    OUTCOME_UNKNOWN("outcome-unknown", "Outcome unknown: retry with the same Idempotency-Key"),
    OVERLOADED("overloaded", "Too many payments waiting to be accepted"),
    /** Too many answers that another bank's account does not exist: the caller may be listing accounts. */
    UNKNOWN_ACCOUNT_LIMIT("unknown-account-limit", "Too many payments to accounts that do not exist"),
    PARTICIPANT_RATE_LIMITED("participant-rate-limited", "Participant over its payment rate"),
    PARTICIPANT_CONCURRENCY_LIMITED("participant-concurrency-limited", "Participant over its concurrent requests"),
    /** A participant's streams and answers are its own: the path names another bank. */
    NOT_YOUR_STREAM("not-your-stream", "Another participant's stream or answers"),
    TOO_MANY_STREAMS("too-many-streams", "Too many open streams"),
    UNKNOWN_STREAM("unknown-stream", "Unknown stream: closed, expired or never opened"),
    MALFORMED_TOKEN("malformed-token", "Malformed stream token"),
    /** A pull token that an earlier pull of the stream already used: its messages are acknowledged. */
    STALE_TOKEN("stale-token", "Stale stream token"),
    /** No payment under this id was instructed to the answering bank (unknown, or another bank's). */
    UNKNOWN_PAYMENT("unknown-payment", "Unknown payment"),
    /** The payment was already resolved by the other answer: nothing moved now. */
    CONFLICTING_ANSWER("conflicting-answer", "A different answer was applied first"),
    /** The reservation lapsed before the answer arrived: the payment expired, nothing moved. */
    ANSWER_AFTER_EXPIRY("answer-after-expiry", "The payment expired before the answer"),
    /** The answer is durably received but the ledger's verdict did not come back in time: send it again. */
    VERDICT_PENDING("verdict-pending", "Answer received, verdict not yet known: send it again"),
    /** Not a key of the type named, or of any type (a look-up, a BR Code): the field says which. */
    INVALID_KEY("invalid-key", "Invalid PIX key"),
    /** No such key in the directory, or one the caller may not change (the two read alike). */
    KEY_NOT_FOUND("key-not-found", "Key not found"),
    /** The key belongs to another account: a claim moves it, a registration does not. */
    KEY_ALREADY_REGISTERED("key-already-registered", "Key already registered to another account"),
    /** An account holds at most 5 keys (a person's) or 20 (a company's). */
    KEY_LIMIT_REACHED("key-limit-reached", "Account holds the most keys allowed"),
    /** A CPF or CNPJ key that is not its holder's tax id, or a holder other than the account's. */
    KEY_HOLDER_MISMATCH("key-holder-mismatch", "Key and holder do not match"),
    /** A CPF or CNPJ of the right shape whose check digits are wrong (a holder's, an end user's). */
    INVALID_TAX_ID("invalid-tax-id", "Invalid CPF or CNPJ"),
    /** A claim on a key of one's own bank. */
    CLAIM_OF_OWN_KEY("claim-of-own-key", "Claim on a key of one's own bank"),
    /** A claim of a kind the key or its holder does not allow (ownership of a CPF key, portability by another). */
    CLAIM_NOT_ALLOWED("claim-not-allowed", "Claim not allowed for this key"),
    /** The key has an open claim already: one at a time. */
    CLAIM_ALREADY_OPEN("claim-already-open", "The key has an open claim"),
    /** No such claim, or one the caller is not a party to (the two read alike). */
    CLAIM_NOT_FOUND("claim-not-found", "Claim not found"),
    /** The claim is completed or cancelled: nothing changes it. */
    CLAIM_CLOSED("claim-closed", "Claim already resolved"),
    /** The end user's or the participant's look-up bucket is empty: the caller may be scanning keys. */
    LOOK_UP_RATE_LIMITED("look-up-rate-limited", "Too many key look-ups"),
    /** A payment by key whose endToEndId no look-up of the paying bank reserved (or one past its validity). */
    UNKNOWN_LOOK_UP("unknown-look-up", "No look-up reserved this end-to-end id"),
    /** A payment by key naming another key than its look-up did. */
    LOOK_UP_KEY_MISMATCH("look-up-key-mismatch", "The look-up was for another key"),
    /** The key was deleted or moved to another account since the look-up: look it up again. */
    KEY_MOVED("key-moved", "Key moved since the look-up"),
    /** Liquidity watermarks whose high one is not above the low one: no room for the hysteresis. */
    WATERMARKS_INVERTED("watermarks-inverted", "High watermark not above the low one"),
    /** An infraction report (MED) its bank may not see, or none under this id: the same answer. */
    REPORT_NOT_FOUND("report-not-found", "Infraction report not found"),
    /** The payment has a report already (one per payment; the answer names it). */
    PAYMENT_ALREADY_REPORTED("payment-already-reported", "Payment already reported"),
    /** A report more than the window (80 days) after the payment settled. */
    REPORT_WINDOW_CLOSED("report-window-closed", "Report window closed"),
    /** A report on a return: report the payment it returns. */
    REPORT_OF_A_RETURN("report-of-a-return", "A return cannot be reported"),
    /** Only the payee's bank analyses a report (the operator, once escalated). */
    NOT_THE_ANALYSING_BANK("not-the-analysing-bank", "Only the payee's bank analyses a report"),
    /** The analysis came after its deadline: the report is escalated to the operator. */
    ANALYSIS_DEADLINE_PASSED("analysis-deadline-passed", "The analysis deadline passed"),
    /** A different decision was made first. */
    REPORT_ALREADY_DECIDED("report-already-decided", "Report already decided"),
    /** Only the payer's bank, which filed the report, asks for its refund. */
    NOT_THE_REPORTING_BANK("not-the-reporting-bank", "Only the payer's bank asks for the refund"),
    /** A refund of a report that is not accepted (open, escalated or rejected). */
    REPORT_NOT_ACCEPTED("report-not-accepted", "Report not accepted"),
    /** A refund of more than the report's holds hold (the answer says how much they hold). */
    REFUND_EXCEEDS_HELD("refund-exceeds-held", "Refund exceeds what is held"),
    /** A refund of another amount was asked for first: a report is refunded once. */
    REFUND_ALREADY_REQUESTED("refund-already-requested", "Refund already requested"),
    /** The report's holds lapsed before the refund was asked for. */
    REFUND_WINDOW_CLOSED("refund-window-closed", "Refund window closed"),
    BR_CODE_MALFORMED("br-code-malformed", "Malformed BR Code"),
    BR_CODE_CRC_MISMATCH("br-code-crc-mismatch", "BR Code CRC does not match"),
    BR_CODE_NOT_PIX("br-code-not-pix", "Not a PIX BR Code"),
    BR_CODE_UNSUPPORTED("br-code-unsupported", "BR Code of an unsupported kind"),
    BR_CODE_INVALID_KEY("br-code-invalid-key", "BR Code with an invalid key"),
    /** The payment's amount is not the one the code fixes. */
    BR_CODE_AMOUNT_MISMATCH("br-code-amount-mismatch", "Amount differs from the BR Code's"),
    /** The ledger holds something else under the payment's ids: an integrity alarm, never a refusal. */
    PAYMENT_UNRESOLVED("payment-unresolved", "The switch could not resolve this payment");

    public static final String BASE = "https://pagora.io/problems/";

    public final String slug;
    public final String title;

    RefusalReason(String slug, String title) {
        this.slug = slug;
        this.title = title;
    }

    public URI uri() {
        return URI.create(BASE + slug);
    }
}
