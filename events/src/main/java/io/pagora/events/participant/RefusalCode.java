package io.pagora.events.participant;

/**
 * Why a payee's bank refuses a credit: a closed list, after PIX's rejection codes (ISO 20022 ExternalStatusReason).
 * Nothing else is a reason: an answer naming another is refused before it reaches clearing.
 */
public enum RefusalCode {
    /** The payee's account number is not valid at this bank. */
    AC03,
    /** The payee's account is blocked. */
    AC06,
    /** The payee's account is closed. */
    AC07,
    /** The payee's account does not accept this kind of transaction. */
    AG03,
    /** The amount exceeds a limit of the payee's account. */
    AM02,
    /** The payee's identity does not match the account (CPF/CNPJ inconsistent). */
    BE01,
    /** Refused for a regulatory reason (e.g. anti-money-laundering). */
    RR04
}
