package io.pagora.settlement.domain;

/** A participant bank, identified by its 8-digit ISPB code as in the real PIX. */
public record BankId(int ispb) {

    public static final int ISPB_MAX = 99_999_999;

    public BankId {
        if (ispb < 0 || ispb > ISPB_MAX) {
            throw new IllegalArgumentException("an ISPB has at most 8 digits: " + ispb);
        }
    }

    /** The 8 digits, zero-padded. Not {@code String.format}: a caller's name is built on every request. */
    @Override
    public String toString() {
        String digits = Integer.toString(ispb);
        return "00000000".substring(digits.length()) + digits;
    }
}
