package io.pagora.ledger.port;

import java.util.EnumSet;

/**
 * The result of creating one transfer.
 *
 * <p>The codes and their order are TigerBeetle 0.16.30's, so every backend speaks the same language
 * and a differential test can compare outcomes code by code. Backends map their own codes to these
 * explicitly; an unknown code is a crash, never a success.
 */
public enum TransferResult {
    OK,
    LINKED_EVENT_FAILED,
    LINKED_EVENT_CHAIN_OPEN,
    IMPORTED_EVENT_EXPECTED,
    IMPORTED_EVENT_NOT_EXPECTED,
    TIMESTAMP_MUST_BE_ZERO,
    IMPORTED_EVENT_TIMESTAMP_OUT_OF_RANGE,
    IMPORTED_EVENT_TIMESTAMP_MUST_NOT_ADVANCE,
    RESERVED_FLAG,
    ID_MUST_NOT_BE_ZERO,
    ID_MUST_NOT_BE_INT_MAX,
    EXISTS_WITH_DIFFERENT_FLAGS,
    EXISTS_WITH_DIFFERENT_PENDING_ID,
    EXISTS_WITH_DIFFERENT_TIMEOUT,
    EXISTS_WITH_DIFFERENT_DEBIT_ACCOUNT_ID,
    EXISTS_WITH_DIFFERENT_CREDIT_ACCOUNT_ID,
    EXISTS_WITH_DIFFERENT_AMOUNT,
    EXISTS_WITH_DIFFERENT_USER_DATA_128,
    EXISTS_WITH_DIFFERENT_USER_DATA_64,
    EXISTS_WITH_DIFFERENT_USER_DATA_32,
    EXISTS_WITH_DIFFERENT_LEDGER,
    EXISTS_WITH_DIFFERENT_CODE,
    EXISTS,
    ID_ALREADY_FAILED,
    FLAGS_ARE_MUTUALLY_EXCLUSIVE,
    DEBIT_ACCOUNT_ID_MUST_NOT_BE_ZERO,
    DEBIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX,
    CREDIT_ACCOUNT_ID_MUST_NOT_BE_ZERO,
    CREDIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX,
    ACCOUNTS_MUST_BE_DIFFERENT,
    PENDING_ID_MUST_BE_ZERO,
    PENDING_ID_MUST_NOT_BE_ZERO,
    PENDING_ID_MUST_NOT_BE_INT_MAX,
    PENDING_ID_MUST_BE_DIFFERENT,
    TIMEOUT_RESERVED_FOR_PENDING_TRANSFER,
    CLOSING_TRANSFER_MUST_BE_PENDING,
    AMOUNT_MUST_NOT_BE_ZERO,
    LEDGER_MUST_NOT_BE_ZERO,
    CODE_MUST_NOT_BE_ZERO,
    DEBIT_ACCOUNT_NOT_FOUND,
    CREDIT_ACCOUNT_NOT_FOUND,
    ACCOUNTS_MUST_HAVE_THE_SAME_LEDGER,
    TRANSFER_MUST_HAVE_THE_SAME_LEDGER_AS_ACCOUNTS,
    PENDING_TRANSFER_NOT_FOUND,
    PENDING_TRANSFER_NOT_PENDING,
    PENDING_TRANSFER_HAS_DIFFERENT_DEBIT_ACCOUNT_ID,
    PENDING_TRANSFER_HAS_DIFFERENT_CREDIT_ACCOUNT_ID,
    PENDING_TRANSFER_HAS_DIFFERENT_LEDGER,
    PENDING_TRANSFER_HAS_DIFFERENT_CODE,
    EXCEEDS_PENDING_TRANSFER_AMOUNT,
    PENDING_TRANSFER_HAS_DIFFERENT_AMOUNT,
    PENDING_TRANSFER_ALREADY_POSTED,
    PENDING_TRANSFER_ALREADY_VOIDED,
    PENDING_TRANSFER_EXPIRED,
    IMPORTED_EVENT_TIMESTAMP_MUST_NOT_REGRESS,
    IMPORTED_EVENT_TIMESTAMP_MUST_POSTDATE_DEBIT_ACCOUNT,
    IMPORTED_EVENT_TIMESTAMP_MUST_POSTDATE_CREDIT_ACCOUNT,
    IMPORTED_EVENT_TIMEOUT_MUST_BE_ZERO,
    DEBIT_ACCOUNT_ALREADY_CLOSED,
    CREDIT_ACCOUNT_ALREADY_CLOSED,
    OVERFLOWS_DEBITS_PENDING,
    OVERFLOWS_CREDITS_PENDING,
    OVERFLOWS_DEBITS_POSTED,
    OVERFLOWS_CREDITS_POSTED,
    OVERFLOWS_DEBITS,
    OVERFLOWS_CREDITS,
    OVERFLOWS_TIMEOUT,
    EXCEEDS_CREDITS,
    EXCEEDS_DEBITS;

    private static final EnumSet<TransferResult> TRANSIENT = EnumSet.of(
            DEBIT_ACCOUNT_NOT_FOUND,
            CREDIT_ACCOUNT_NOT_FOUND,
            PENDING_TRANSFER_NOT_FOUND,
            DEBIT_ACCOUNT_ALREADY_CLOSED,
            CREDIT_ACCOUNT_ALREADY_CLOSED,
            EXCEEDS_CREDITS,
            EXCEEDS_DEBITS);

    /** The event took effect now, or had taken effect before with identical fields. */
    public boolean isSuccess() {
        return this == OK || this == EXISTS;
    }

    /**
     * The id was already used for an event with different fields. For deterministic ids this means
     * two different operations derived the same id, or stored data changed: raise an integrity alarm.
     */
    public boolean isIntegrityAlarm() {
        return name().startsWith("EXISTS_WITH_DIFFERENT_");
    }

    /**
     * The outcome depends on ledger state at the time (balances, existence), not on the request alone.
     * In TigerBeetle 0.16.30 such a failure burns the id: a retry with the same id answers
     * {@link #ID_ALREADY_FAILED}.
     */
    public boolean isTransient() {
        return TRANSIENT.contains(this);
    }
}
