package io.pagora.ledger.port;

/**
 * The result of creating one account.
 *
 * <p>The codes and their order are TigerBeetle 0.16.30's, so every backend speaks the same language
 * and a differential test can compare outcomes code by code. Backends map their own codes to these
 * explicitly; an unknown code is a crash, never a success.
 */
public enum AccountResult {
    OK,
    LINKED_EVENT_FAILED,
    LINKED_EVENT_CHAIN_OPEN,
    IMPORTED_EVENT_EXPECTED,
    IMPORTED_EVENT_NOT_EXPECTED,
    TIMESTAMP_MUST_BE_ZERO,
    IMPORTED_EVENT_TIMESTAMP_OUT_OF_RANGE,
    IMPORTED_EVENT_TIMESTAMP_MUST_NOT_ADVANCE,
    RESERVED_FIELD,
    RESERVED_FLAG,
    ID_MUST_NOT_BE_ZERO,
    ID_MUST_NOT_BE_INT_MAX,
    EXISTS_WITH_DIFFERENT_FLAGS,
    EXISTS_WITH_DIFFERENT_USER_DATA_128,
    EXISTS_WITH_DIFFERENT_USER_DATA_64,
    EXISTS_WITH_DIFFERENT_USER_DATA_32,
    EXISTS_WITH_DIFFERENT_LEDGER,
    EXISTS_WITH_DIFFERENT_CODE,
    EXISTS,
    FLAGS_ARE_MUTUALLY_EXCLUSIVE,
    DEBITS_PENDING_MUST_BE_ZERO,
    DEBITS_POSTED_MUST_BE_ZERO,
    CREDITS_PENDING_MUST_BE_ZERO,
    CREDITS_POSTED_MUST_BE_ZERO,
    LEDGER_MUST_NOT_BE_ZERO,
    CODE_MUST_NOT_BE_ZERO,
    IMPORTED_EVENT_TIMESTAMP_MUST_NOT_REGRESS;

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
}
