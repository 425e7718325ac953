package io.pagora.settlement.domain;

/** Ledger transfer codes: what a transfer is for. Post and void transfers carry their pending leg's code. */
public final class TransferCode {

    private TransferCode() {}

    /** Central bank → a bank's reserve. */
    public static final int RESERVE_FUNDING = 10;
    /** A bank's transit → one of its customers. */
    public static final int CUSTOMER_FUNDING = 20;
    /** Leg 1 of an interbank payment: payer → payer bank's transit. */
    public static final int PAYER_TO_TRANSIT = 101;
    /** Leg 2: payer bank's reserve → payee bank's reserve (interbank settlement). */
    public static final int RESERVE_TO_RESERVE = 102;
    /** Leg 3: payee bank's transit → payee. */
    public static final int TRANSIT_TO_PAYEE = 103;
    /** The single leg of an on-us payment: payer → payee at the same bank. */
    public static final int ON_US = 104;
    /** The last leg of a return: the original payment's returnable account → returns control, the amount returned. */
    public static final int RETURNED_AMOUNT = 105;
    /** Returns control → a settled payment's returnable account: its amount, once, before its first return. */
    public static final int RETURNABLE_OPENING = 30;
    /** A cautionary hold (MED): a customer → its bank's fraud holds account, pending until released or refunded. */
    public static final int CAUTIONARY_HOLD = 40;
}
