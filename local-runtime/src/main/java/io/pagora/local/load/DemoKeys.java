package io.pagora.local.load;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;

/**
 * The PIX keys of the seeded customers (docs/directory.md), made from the account id so that every sender (k6, the
 * bench's generator, the degraded loop) knows a payee's key and a payer's end-user id without a file: an e-mail key
 * {@code c<account id>@pagora.example}, and a holder CPF from the account id's last 8 hex digits, which is also the
 * customer's {@code PI-PayerId} when it pays. k6 computes the same in {@code k6/lib/keys.js} (DemoKeysTest holds the
 * two to each other).
 */
public final class DemoKeys {

    private DemoKeys() {}

    public static String keyOf(Id128 account) {
        return "c" + account + "@pagora.example";
    }

    /** An 11-digit CPF with valid check digits; not all alike. */
    public static String cpfOf(Id128 account) {
        return cpfOf(Long.parseLong(account.toString().substring(24), 16));
    }

    /** The {@code n}th end user's CPF (n ≥ 0): as {@link #cpfOf(Id128)}, for end users who hold no account here. */
    public static String cpfOf(long n) {
        Check.that(n >= 0, "a non-negative end user number: %d", n);
        long base = 100_000_000 + (n % 900_000_000);
        // Bounded: at most nine bases in a row make a CPF of one repeated digit.
        for (int attempt = 0; attempt < 20; attempt++) {
            String cpf = withCheckDigits(Long.toString(base));
            if (!cpf.chars().allMatch(c -> c == cpf.charAt(0))) {
                return cpf;
            }
            base = base == 999_999_999 ? 100_000_000 : base + 1;
        }
        throw new IllegalStateException("no CPF near " + base);
    }

    /**
     * A static BR Code for {@code key}, as a merchant's printed code carries it (docs/directory.md): the payload
     * format, the {@code br.gov.bcb.pix} account template with the key, category 0000, currency 986, the amount if
     * given, country BR, the merchant's name and city, no transaction id ({@code ***}), and the CRC16-CCITT.
     */
    public static String brCodeOf(String key, Long amountCentavos, String merchantName, String merchantCity) {
        StringBuilder code = new StringBuilder(200);
        field(code, "00", "01");
        field(
                code,
                "26",
                field(new StringBuilder(), "00", "br.gov.bcb.pix")
                        .append(field(new StringBuilder(), "01", key))
                        .toString());
        field(code, "52", "0000");
        field(code, "53", "986");
        if (amountCentavos != null) {
            field(code, "54", (amountCentavos / 100) + "." + String.format("%02d", amountCentavos % 100));
        }
        field(code, "58", "BR");
        field(code, "59", merchantName);
        field(code, "60", merchantCity);
        field(code, "62", "0503***");
        code.append("6304");
        return code.append(String.format("%04X", crc16(code))).toString();
    }

    private static StringBuilder field(StringBuilder into, String id, String value) {
        Check.that(!value.isEmpty() && value.length() <= 99, "an EMV field of 1..99 characters: %s", id);
        return into.append(id).append(String.format("%02d", value.length())).append(value);
    }

    /** CRC16-CCITT: polynomial 0x1021, initial 0xFFFF, over ASCII. */
    private static int crc16(CharSequence text) {
        int crc = 0xFFFF;
        for (int i = 0; i < text.length(); i++) {
            crc ^= text.charAt(i) << 8;
            for (int bit = 0; bit < 8; bit++) {
                crc = (crc & 0x8000) != 0 ? ((crc << 1) ^ 0x1021) & 0xFFFF : (crc << 1) & 0xFFFF;
            }
        }
        return crc;
    }

    private static String withCheckDigits(String nine) {
        Check.that(nine.length() == 9, "nine digits: %s", nine);
        StringBuilder digits = new StringBuilder(nine);
        for (int length = 9; length <= 10; length++) {
            int sum = 0;
            for (int i = 0; i < length; i++) {
                sum += (digits.charAt(i) - '0') * (length + 1 - i);
            }
            int rest = sum % 11;
            digits.append(rest < 2 ? 0 : 11 - rest);
        }
        return digits.toString();
    }
}
