package io.pagora.payments.api.domain.directory;

/**
 * Brazilian tax ids and their check digits: a CPF (a person's, 11 digits) and a CNPJ (a company's, 14 characters;
 * since July 2026 its first 12 may be upper-case letters, each valued by its ASCII code less 48, the check digits
 * computed as before).
 */
public final class TaxId {

    public static final int CPF_CHARS = 11;
    public static final int CNPJ_CHARS = 14;

    private static final int[] CNPJ_WEIGHTS = {6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2};

    private TaxId() {}

    /** Whether {@code text} is a CPF: 11 digits, not all alike, with both check digits right. */
    public static boolean isCpf(String text) {
        if (text == null || text.length() != CPF_CHARS) {
            return false;
        }
        boolean allAlike = true;
        for (int i = 0; i < CPF_CHARS; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
            allAlike &= c == text.charAt(0);
        }
        // 000.000.000-00, 111.111.111-11 and the like pass the check digits and are no one's.
        return !allAlike && cpfDigit(text, 9) == text.charAt(9) - '0' && cpfDigit(text, 10) == text.charAt(10) - '0';
    }

    /** Whether {@code text} is a CNPJ: 12 digits or upper-case letters, 2 check digits right, not all zeros. */
    public static boolean isCnpj(String text) {
        if (text == null || text.length() != CNPJ_CHARS) {
            return false;
        }
        boolean allZero = true;
        for (int i = 0; i < CNPJ_CHARS; i++) {
            char c = text.charAt(i);
            boolean digit = c >= '0' && c <= '9';
            if (!(digit || (i < 12 && c >= 'A' && c <= 'Z'))) {
                return false;
            }
            allZero &= c == '0';
        }
        return !allZero && cnpjDigit(text, 12) == text.charAt(12) - '0' && cnpjDigit(text, 13) == text.charAt(13) - '0';
    }

    /** Whether the id is a company's (a CNPJ); else a person's. */
    public static boolean isCompany(String taxId) {
        return taxId.length() == CNPJ_CHARS;
    }

    /** Either kind, well-formed. */
    public static boolean isTaxId(String text) {
        return isCpf(text) || isCnpj(text);
    }

    /** The check digit at {@code position} (9 or 10) of a CPF: weights from position + 1 down to 2. */
    private static int cpfDigit(String cpf, int position) {
        int sum = 0;
        for (int i = 0; i < position; i++) {
            sum += (cpf.charAt(i) - '0') * (position + 1 - i);
        }
        int rest = sum % 11;
        return rest < 2 ? 0 : 11 - rest;
    }

    /** The check digit at {@code position} (12 or 13) of a CNPJ. */
    private static int cnpjDigit(String cnpj, int position) {
        int sum = 0;
        int offset = CNPJ_WEIGHTS.length - position;
        for (int i = 0; i < position; i++) {
            sum += (cnpj.charAt(i) - '0') * CNPJ_WEIGHTS[offset + i];
        }
        int rest = sum % 11;
        return rest < 2 ? 0 : 11 - rest;
    }

    /**
     * A tax id as a payer's bank may show it to its customer: a CPF with its first three and last two digits hidden
     * ({@code ***.456.789-**}, as PIX apps show it); a CNPJ in full (a company's is public).
     */
    public static String masked(String taxId) {
        if (isCompany(taxId)) {
            return taxId;
        }
        return "***." + taxId.substring(3, 6) + "." + taxId.substring(6, 9) + "-**";
    }
}
