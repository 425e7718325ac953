package io.pagora.payments.api.domain.directory;

import io.pagora.kernel.Check;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalReason;
import java.text.Normalizer;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A static PIX QR code's payload (a BR Code): BCB's profile of the EMV merchant-presented format. Each field is an
 * id (2 digits), a length (2 digits) and a value; the PIX fields are the payload format (00 = 01), the merchant
 * account information (a template in 26..51 whose GUI, 00, is {@value #GUI} and whose 01 is the key, 02 an optional
 * text for the payer), the merchant category (52), the currency (53 = 986), the amount (54, optional), the country
 * (58 = BR), the merchant's name (59) and city (60), an optional postal code (61), the additional data (62, whose 05
 * is the transaction id, {@code ***} for none) and last the CRC16 (63, four hex digits over everything before them,
 * {@code 6304} included).
 *
 * @param amountCentavos the amount the payer must pay, or null: the payer chooses
 * @param txid the merchant's transaction id, or {@value #NO_TXID}
 * @param description the text for the payer (26.02), or null
 */
public record BrCode(
        PixKey key, Long amountCentavos, String merchantName, String merchantCity, String txid, String description) {

    public static final String GUI = "br.gov.bcb.pix";
    public static final String NO_TXID = "***";
    public static final int MERCHANT_NAME_CHARS_MAX = 25;
    public static final int MERCHANT_CITY_CHARS_MAX = 15;
    public static final int TXID_CHARS_MAX = 25;
    /** EMV's longest payload, and so the longest text this parser reads. */
    public static final int TEXT_CHARS_MAX = 512;

    private static final int FIELD_CHARS_MAX = 99;
    private static final Pattern TXID = Pattern.compile("[A-Za-z0-9]{1," + TXID_CHARS_MAX + "}");
    private static final Pattern AMOUNT = Pattern.compile("([0-9]{1,10})(?:\\.([0-9]{1,2}))?");
    private static final Pattern PRINTABLE = Pattern.compile("[\\x20-\\x7E]*");
    private static final String CRC_ID_AND_LENGTH = "6304";

    public BrCode {
        Objects.requireNonNull(key, "key");
        Check.that(amountCentavos == null || amountCentavos > 0, "an amount is positive");
        Check.that(present(merchantName, MERCHANT_NAME_CHARS_MAX), "a merchant name of 1..25 characters");
        Check.that(present(merchantCity, MERCHANT_CITY_CHARS_MAX), "a merchant city of 1..15 characters");
        Check.that(NO_TXID.equals(txid) || TXID.matcher(txid).matches(), "a txid of 1..25 letters or digits, or ***");
        Check.that(description == null || present(description, FIELD_CHARS_MAX), "a description of 1..99 characters");
        Check.that(accountTemplate(key, description).length() <= FIELD_CHARS_MAX, "the account template fits 99 chars");
    }

    /**
     * A code's text fields as a QR code carries them: accents dropped (BCB's manual asks for plain characters: "São
     * Paulo" becomes "Sao Paulo"), surrounding blanks trimmed. The result may still be unfit (too long, a symbol
     * outside ASCII): {@link #problem} says so.
     */
    public static String plain(String text) {
        if (text == null) {
            return null;
        }
        return Normalizer.normalize(text, Normalizer.Form.NFD)
                .replaceAll("\\p{M}", "")
                .trim();
    }

    /** Why these fields cannot make a code (the field named as a request names it), or null. */
    public static Refusal problem(
            PixKey key,
            Long amountCentavos,
            String merchantName,
            String merchantCity,
            String txid,
            String description) {
        if (amountCentavos != null && amountCentavos <= 0) {
            return Refusal.ofField(RefusalReason.INVALID_AMOUNT, "amountCentavos", "amountCentavos is positive");
        }
        if (!fits(merchantName, MERCHANT_NAME_CHARS_MAX)) {
            return Refusal.ofField(
                    RefusalReason.INVALID_FIELD,
                    "merchantName",
                    "merchantName is 1 to 25 characters of plain ASCII, accents dropped");
        }
        if (!fits(merchantCity, MERCHANT_CITY_CHARS_MAX)) {
            return Refusal.ofField(
                    RefusalReason.INVALID_FIELD,
                    "merchantCity",
                    "merchantCity is 1 to 15 characters of plain ASCII, accents dropped");
        }
        if (txid != null && !TXID.matcher(txid).matches()) {
            return Refusal.ofField(RefusalReason.INVALID_FIELD, "txid", "txid is 1 to 25 letters or digits");
        }
        if (description != null && !fits(description, FIELD_CHARS_MAX)) {
            return Refusal.ofField(
                    RefusalReason.INVALID_FIELD, "description", "description is plain ASCII, accents dropped");
        }
        if (accountTemplate(key, description).length() > FIELD_CHARS_MAX) {
            return Refusal.ofField(
                    RefusalReason.INVALID_FIELD,
                    "description",
                    "the key and the description together take at most "
                            + (FIELD_CHARS_MAX - 22 - key.value().length())
                            + " characters for the description with this key");
        }
        return null;
    }

    /** The payload: what the QR code encodes, and what "PIX copia e cola" pastes. */
    public String text() {
        StringBuilder text = new StringBuilder(256);
        field(text, "00", "01");
        field(text, "26", accountTemplate(key, description));
        field(text, "52", "0000");
        field(text, "53", "986");
        if (amountCentavos != null) {
            field(text, "54", amountText(amountCentavos));
        }
        field(text, "58", "BR");
        field(text, "59", merchantName);
        field(text, "60", merchantCity);
        StringBuilder additional = new StringBuilder();
        field(additional, "05", txid);
        field(text, "62", additional.toString());
        text.append(CRC_ID_AND_LENGTH);
        return text.append(Crc16.hex(text.toString())).toString();
    }

    /** The amount as field 54 writes it: units, a dot, two decimals ({@code 123.45}). */
    public static String amountText(long centavos) {
        return (centavos / 100) + "." + String.format("%02d", centavos % 100);
    }

    /** A BR Code read: the code, or why it is not one PIX can pay. */
    public sealed interface Read {
        record Code(BrCode code) implements Read {}

        record Bad(Refusal problem) implements Read {}
    }

    /**
     * Reads a BR Code as a payer's bank receives it (pasted, or scanned). Each defect is told apart: a text that is not
     * EMV TLV, or lacks a PIX field ({@code br-code-malformed}); a CRC that does not match ({@code br-code-crc-mismatch});
     * no {@value #GUI} account template ({@code br-code-not-pix}); a dynamic code, whose payload is behind a URL
     * ({@code br-code-unsupported}); a key that is none ({@code br-code-invalid-key}).
     */
    public static Read read(String text, String field) {
        if (text == null || text.isEmpty() || text.length() > TEXT_CHARS_MAX) {
            return bad(RefusalReason.BR_CODE_MALFORMED, field, field + " is 1 to " + TEXT_CHARS_MAX + " characters");
        }
        if (text.length() < 8 || !text.regionMatches(text.length() - 8, CRC_ID_AND_LENGTH, 0, 4)) {
            return bad(
                    RefusalReason.BR_CODE_MALFORMED, field, "a BR Code ends with its CRC field, 6304 and 4 hex digits");
        }
        String expected = Crc16.hex(text.substring(0, text.length() - 4));
        if (!expected.equalsIgnoreCase(text.substring(text.length() - 4))) {
            return bad(
                    RefusalReason.BR_CODE_CRC_MISMATCH,
                    field,
                    "the CRC is " + text.substring(text.length() - 4) + ", the payload's is " + expected
                            + ": the code was altered or mistyped");
        }
        Map<String, String> fields = fields(text.substring(0, text.length() - 8));
        if (fields == null) {
            return bad(RefusalReason.BR_CODE_MALFORMED, field, "not EMV fields: id, 2-digit length, value");
        }
        if (!"01".equals(fields.get("00")) || !text.startsWith("000201")) {
            return bad(RefusalReason.BR_CODE_MALFORMED, field, "a BR Code starts with its payload format, 000201");
        }
        Map<String, String> account = null;
        for (int id = 26; id <= 51 && account == null; id++) {
            String template = fields.get(Integer.toString(id));
            Map<String, String> inside = template == null ? null : fields(template);
            if (inside != null && GUI.equalsIgnoreCase(inside.get("00"))) {
                account = inside;
            }
        }
        if (account == null) {
            return bad(
                    RefusalReason.BR_CODE_NOT_PIX,
                    field,
                    "no merchant account template with the GUI " + GUI + ": not a PIX code");
        }
        if (account.containsKey("25")) {
            return bad(
                    RefusalReason.BR_CODE_UNSUPPORTED,
                    field,
                    "a dynamic code (its payload behind a URL, 26.25): the switch pays static codes only");
        }
        String keyText = account.get("01");
        PixKey key = keyText == null ? null : PixKey.of(keyText).orElse(null);
        if (key == null) {
            return bad(RefusalReason.BR_CODE_INVALID_KEY, field, "the code's key (26.01) is not a PIX key");
        }
        Long amount = null;
        String amountText = fields.get("54");
        if (amountText != null) {
            var matched = AMOUNT.matcher(amountText);
            if (!matched.matches()) {
                return bad(RefusalReason.BR_CODE_MALFORMED, field, "the amount (54) is digits, a dot, 2 decimals");
            }
            String decimals = matched.group(2) == null ? "00" : (matched.group(2) + "0").substring(0, 2);
            amount = Long.parseLong(matched.group(1)) * 100 + Integer.parseInt(decimals);
            if (amount <= 0) {
                return bad(RefusalReason.BR_CODE_MALFORMED, field, "the amount (54) is positive");
            }
        }
        Map<String, String> additional = fields.get("62") == null ? null : fields(fields.get("62"));
        String txid = additional == null ? null : additional.get("05");
        if (!"0000".equals(fields.get("52"))
                && (fields.get("52") == null || !fields.get("52").matches("[0-9]{4}"))) {
            return bad(RefusalReason.BR_CODE_MALFORMED, field, "the merchant category (52) is 4 digits");
        }
        if (!"986".equals(fields.get("53")) || !"BR".equals(fields.get("58"))) {
            return bad(
                    RefusalReason.BR_CODE_MALFORMED, field, "a PIX code is in reais (53 = 986) and Brazil (58 = BR)");
        }
        String name = fields.get("59");
        String city = fields.get("60");
        // Read leniently: codes in the wild carry accents the manual advises against; the payer only sees them.
        if (!present(name, MERCHANT_NAME_CHARS_MAX) || !present(city, MERCHANT_CITY_CHARS_MAX)) {
            return bad(
                    RefusalReason.BR_CODE_MALFORMED,
                    field,
                    "the merchant's name (59) and city (60) are missing or too long");
        }
        if (txid == null || !(NO_TXID.equals(txid) || TXID.matcher(txid).matches())) {
            return bad(
                    RefusalReason.BR_CODE_MALFORMED,
                    field,
                    "the transaction id (62.05) is 1..25 letters or digits, or ***");
        }
        String description = account.get("02");
        if (description != null && !present(description, FIELD_CHARS_MAX)) {
            description = null;
        }
        return new Read.Code(new BrCode(key, amount, name, city, txid, description));
    }

    /** The code's merchant account template (26): the GUI, the key, the text for the payer. */
    private static String accountTemplate(PixKey key, String description) {
        StringBuilder template = new StringBuilder(FIELD_CHARS_MAX);
        field(template, "00", GUI);
        field(template, "01", key.value());
        if (description != null) {
            field(template, "02", description);
        }
        return template.toString();
    }

    /** The fields of a TLV run, in order; null if it is not one (a bad id or length, a field overrunning). */
    private static Map<String, String> fields(String text) {
        Map<String, String> fields = new LinkedHashMap<>();
        int at = 0;
        // Bounded: every round consumes at least 4 characters of a text of at most 512.
        while (at < text.length()) {
            if (at + 4 > text.length()) {
                return null;
            }
            String id = text.substring(at, at + 2);
            String length = text.substring(at + 2, at + 4);
            if (!id.matches("[0-9]{2}") || !length.matches("[0-9]{2}")) {
                return null;
            }
            int chars = Integer.parseInt(length);
            if (chars == 0 || at + 4 + chars > text.length() || fields.containsKey(id)) {
                return null;
            }
            fields.put(id, text.substring(at + 4, at + 4 + chars));
            at += 4 + chars;
        }
        return fields;
    }

    private static void field(StringBuilder into, String id, String value) {
        Check.that(value.length() >= 1 && value.length() <= FIELD_CHARS_MAX, "an EMV field of 1..99 chars: %s", id);
        into.append(id);
        if (value.length() < 10) {
            into.append('0');
        }
        into.append(value.length()).append(value);
    }

    private static boolean fits(String text, int charsMax) {
        return present(text, charsMax) && PRINTABLE.matcher(text).matches();
    }

    private static boolean present(String text, int charsMax) {
        return text != null && !text.isBlank() && text.length() <= charsMax;
    }

    private static Read bad(RefusalReason reason, String field, String detail) {
        return new Read.Bad(Refusal.ofField(reason, field, detail));
    }

    @Override
    public String toString() {
        return "BrCode[" + key + (amountCentavos == null ? "" : ", " + amountText(amountCentavos)) + ", "
                + merchantName.toUpperCase(Locale.ROOT) + "]";
    }
}
