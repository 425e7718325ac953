package io.pagora.events.json;

import java.time.Instant;

/**
 * Instants as the wire writes them, {@code yyyy-MM-ddTHH:mm:ss[.fraction]Z} in UTC (what {@link Instant#toString()}
 * writes for years 0000..9999), converted by arithmetic: {@link java.time.format.DateTimeFormatter} parsing was the
 * largest single cost of decoding an event. Dates are converted with the proleptic Gregorian calendar's civil-day
 * arithmetic (days since 1970-01-01 to and from year, month, day).
 */
public final class InstantText {

    private static final int SECONDS_PER_DAY = 86_400;
    private static final int DAYS_PER_ERA = 146_097;
    private static final int DAYS_FROM_ERA_START_TO_EPOCH = 719_468;
    /** {@code yyyy-MM-ddTHH:mm:ssZ}: the shortest canonical form. */
    private static final int CHARS_MIN = 20;
    /** A fraction of nanoseconds has at most this many digits. */
    private static final int FRACTION_DIGITS_MAX = 9;

    private InstantText() {}

    /**
     * The instant {@code chars[offset, offset + count)} writes in the canonical form, or null if they are in any other
     * form or name no instant (a caller then falls back to a lenient parser, which decides).
     */
    public static Instant parseCanonical(char[] chars, int offset, int count) {
        if (count < CHARS_MIN || count > CHARS_MIN + 1 + FRACTION_DIGITS_MAX) {
            return null;
        }
        int at = offset;
        int year = digits(chars, at, 4);
        int month = digits(chars, at + 5, 2);
        int day = digits(chars, at + 8, 2);
        int hour = digits(chars, at + 11, 2);
        int minute = digits(chars, at + 14, 2);
        int second = digits(chars, at + 17, 2);
        if (year < 0
                || month < 1
                || month > 12
                || day < 1
                || day > daysInMonth(year, month)
                || hour < 0
                || hour > 23
                || minute < 0
                || minute > 59
                || second < 0
                || second > 59
                || chars[at + 4] != '-'
                || chars[at + 7] != '-'
                || chars[at + 10] != 'T'
                || chars[at + 13] != ':'
                || chars[at + 16] != ':'
                || chars[offset + count - 1] != 'Z') {
            return null;
        }
        int nanos = 0;
        int fractionDigits = count - CHARS_MIN - 1;
        if (fractionDigits >= 0) {
            if (chars[at + 19] != '.' || fractionDigits == 0) {
                return null;
            }
            nanos = digits(chars, at + 20, fractionDigits);
            if (nanos < 0) {
                return null;
            }
            for (int i = fractionDigits; i < FRACTION_DIGITS_MAX; i++) {
                nanos *= 10;
            }
        }
        long seconds = epochDay(year, month, day) * SECONDS_PER_DAY + hour * 3600L + minute * 60L + second;
        return Instant.ofEpochSecond(seconds, nanos);
    }

    /** The civil date of a day counted from 1970-01-01, packed: see {@link #year}, {@link #month}, {@link #day}. */
    public static long civilOf(long epochDay) {
        long shifted = epochDay + DAYS_FROM_ERA_START_TO_EPOCH;
        long era = Math.floorDiv(shifted, DAYS_PER_ERA);
        int dayOfEra = (int) (shifted - era * DAYS_PER_ERA);
        int yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
        int dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        int monthFromMarch = (5 * dayOfYear + 2) / 153;
        int day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1;
        int month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        return (year << 16) | ((long) month << 8) | day;
    }

    public static long year(long civil) {
        return civil >> 16;
    }

    public static int month(long civil) {
        return (int) (civil >> 8) & 0xFF;
    }

    public static int day(long civil) {
        return (int) civil & 0xFF;
    }

    /** Days from 1970-01-01 to a valid civil date. */
    static long epochDay(long year, int month, int day) {
        long yearFromMarch = month <= 2 ? year - 1 : year;
        long era = Math.floorDiv(yearFromMarch, 400);
        int yearOfEra = (int) (yearFromMarch - era * 400);
        int dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
        int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * DAYS_PER_ERA + dayOfEra - DAYS_FROM_ERA_START_TO_EPOCH;
    }

    private static int daysInMonth(int year, int month) {
        return switch (month) {
            case 2 -> (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
    }

    /** The decimal number of {@code count} ASCII digits at {@code from}, or -1 if one is not a digit. */
    private static int digits(char[] chars, int from, int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            int digit = chars[i] - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
    }
}
