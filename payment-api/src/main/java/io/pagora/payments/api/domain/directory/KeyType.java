package io.pagora.payments.api.domain.directory;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The five kinds of PIX key, each with the format the directory accepts (DICT's): a key is stored and compared in
 * that form only, so one key has one spelling.
 */
public enum KeyType {
    /** A person's tax id: 11 digits with valid check digits, no punctuation. */
    CPF,
    /** A company's tax id: 12 alphanumeric characters (upper case; the 2026 alphanumeric CNPJ) and 2 check digits. */
    CNPJ,
    /** A mobile number in E.164: {@code +}, the country code, the number; 2 to 15 digits in all. */
    PHONE,
    /** An e-mail address, at most 77 characters, stored in lower case. */
    EMAIL,
    /** A random key the directory makes (a version 4 UUID, lower case): the holder's data stay private. */
    EVP;

    /** DICT's longest e-mail key. */
    public static final int EMAIL_CHARS_MAX = 77;

    private static final Pattern PHONE_FORMAT = Pattern.compile("\\+[1-9][0-9]{1,14}");
    private static final Pattern EMAIL_FORMAT = Pattern.compile(
            "[a-z0-9.!#$&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*");
    private static final Pattern EVP_FORMAT =
            Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");

    /** The type named in a request ({@code cpf}, {@code CPF}), if it is one. */
    public static Optional<KeyType> named(String name) {
        if (name == null) {
            return Optional.empty();
        }
        for (KeyType type : values()) {
            if (type.name().equalsIgnoreCase(name)) {
                return Optional.of(type);
            }
        }
        return Optional.empty();
    }

    /**
     * The key's stored form, if {@code raw} is a well-formed key of this type: an e-mail in lower case, an EVP in lower
     * case; the others exactly as given (a CPF with dots is not a CPF key: DICT takes digits only).
     */
    public Optional<String> normalized(String raw) {
        if (raw == null || raw.isEmpty() || raw.length() > EMAIL_CHARS_MAX) {
            return Optional.empty();
        }
        return switch (this) {
            case CPF -> TaxId.isCpf(raw) ? Optional.of(raw) : Optional.empty();
            case CNPJ -> TaxId.isCnpj(raw) ? Optional.of(raw) : Optional.empty();
            case PHONE -> PHONE_FORMAT.matcher(raw).matches() ? Optional.of(raw) : Optional.empty();
            case EMAIL -> {
                String lower = raw.toLowerCase(Locale.ROOT);
                yield EMAIL_FORMAT.matcher(lower).matches() ? Optional.of(lower) : Optional.empty();
            }
            case EVP -> {
                String lower = raw.toLowerCase(Locale.ROOT);
                yield EVP_FORMAT.matcher(lower).matches() ? Optional.of(lower) : Optional.empty();
            }
        };
    }

    /** What a well-formed key of this type looks like, for a refusal's detail. */
    public String format() {
        return switch (this) {
            case CPF -> "11 digits with valid check digits, no punctuation (e.g. 12345678909)";
            case CNPJ -> "12 digits or upper-case letters and 2 check digits, no punctuation (e.g. 11222333000181)";
            case PHONE -> "E.164: + then 2 to 15 digits, the first not 0 (e.g. +5561912345678)";
            case EMAIL -> "an e-mail address of at most " + EMAIL_CHARS_MAX + " characters";
            case EVP -> "a version 4 UUID made by the directory (e.g. 123e4567-e89b-42d3-a456-426614174000)";
        };
    }

    /**
     * The type of a key given without one (a look-up, a BR Code): the formats do not overlap — a phone starts with
     * {@code +}, an e-mail holds {@code @}, an EVP is a UUID, and 11 and 14 characters tell a CPF from a CNPJ.
     */
    public static Optional<KeyType> of(String raw) {
        if (raw == null || raw.isEmpty()) {
            return Optional.empty();
        }
        if (raw.startsWith("+")) {
            return Optional.of(PHONE);
        }
        if (raw.indexOf('@') >= 0) {
            return Optional.of(EMAIL);
        }
        if (raw.length() == 36) {
            return Optional.of(EVP);
        }
        if (raw.length() == 11) {
            return Optional.of(CPF);
        }
        if (raw.length() == 14) {
            return Optional.of(CNPJ);
        }
        return Optional.empty();
    }
}
