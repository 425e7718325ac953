package io.pagora.testing.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Generates a string matching a simple regular expression: anchors, literals, character classes with
 * ranges, negations ({@code [^...]}: visible ASCII and the space but those) and hexadecimal escapes (a backslash
 * and x with two digits, or u with four), groups {@code (...)} with alternatives {@code a|b}, and the quantifiers
 * {@code {n}}, {@code {n,m}}, {@code +}, {@code *}, {@code ?} on an atom or a group. Enough for the patterns of
 * API documents (ids, codes, dates, visible-ASCII keys); anything else fails loudly rather than producing a value
 * that does not match.
 *
 * <p>Besides a random value, the two boundary values a pattern admits ({@link #lowest}, {@link #highest}): every
 * class its first (last) character, every quantifier its fewest (most) repeats, every group its first (last)
 * alternative — e.g. all zeros and all {@code f}s for a hexadecimal id.
 */
final class PatternSamples {

    /** {@code +} and {@code *} repeat at most this often. */
    private static final int OPEN_REPEAT_MAX = 8;
    /** Groups nest at most this deep: the documents' patterns nest one or two. */
    private static final int GROUP_DEPTH_MAX = 4;

    private enum Choice {
        RANDOM,
        LOWEST,
        HIGHEST
    }

    private final Random random;

    PatternSamples(Random random) {
        this.random = random;
    }

    String matching(String pattern) {
        return generate(pattern, Choice.RANDOM);
    }

    /** The pattern's smallest value: first characters, fewest repeats, first alternatives. */
    static String lowest(String pattern) {
        return new PatternSamples(new Random(0)).generate(pattern, Choice.LOWEST);
    }

    /** The pattern's largest value: last characters, most repeats, last alternatives. */
    static String highest(String pattern) {
        return new PatternSamples(new Random(0)).generate(pattern, Choice.HIGHEST);
    }

    private String generate(String pattern, Choice choice) {
        StringBuilder out = new StringBuilder();
        int end = alternatives(pattern, 0, choice, out, 0);
        if (end != pattern.length()) {
            throw unsupported(pattern);
        }
        return out.toString();
    }

    /** Appends one of the alternatives starting at {@code at}; returns where they end (at a ')' or the end). */
    private int alternatives(String pattern, int at, Choice choice, StringBuilder out, int depth) {
        if (depth > GROUP_DEPTH_MAX) {
            throw unsupported(pattern);
        }
        List<int[]> spans = new ArrayList<>();
        int start = at;
        int i = at;
        int nesting = 0;
        while (i < pattern.length()) {
            char c = pattern.charAt(i);
            if (c == '\\') {
                i += 2;
                continue;
            }
            if (c == '[') {
                i = pattern.indexOf(']', i + 1) + 1;
                if (i == 0) {
                    throw unsupported(pattern);
                }
                continue;
            }
            if (c == '(') {
                nesting++;
            } else if (c == ')') {
                if (nesting == 0) {
                    break;
                }
                nesting--;
            } else if (c == '|' && nesting == 0) {
                spans.add(new int[] {start, i});
                start = i + 1;
            }
            i++;
        }
        spans.add(new int[] {start, i});
        int[] span = switch (choice) {
            case LOWEST -> spans.getFirst();
            case HIGHEST -> spans.getLast();
            case RANDOM -> spans.get(random.nextInt(spans.size()));
        };
        sequence(pattern, span[0], span[1], choice, out, depth);
        return i;
    }

    /** Appends a value of the atoms from {@code at} to {@code end}, each with its quantifier. */
    private void sequence(String pattern, int at, int end, Choice choice, StringBuilder out, int depth) {
        while (at < end) {
            char c = pattern.charAt(at);
            if (c == '^' || c == '$') {
                at++;
                continue;
            }
            int[] repeat = new int[2];
            if (c == '(') {
                if (at + 1 < end && pattern.charAt(at + 1) == '?') {
                    throw unsupported(pattern);
                }
                int body = at + 1;
                // First only to find where the group closes; then once per repeat, each its own alternative.
                int close = alternatives(pattern, body, Choice.LOWEST, new StringBuilder(), depth + 1);
                if (close >= end || pattern.charAt(close) != ')') {
                    throw unsupported(pattern);
                }
                at = quantifier(pattern, close + 1, repeat);
                int count = count(repeat, choice);
                for (int k = 0; k < count; k++) {
                    alternatives(pattern, body, choice, out, depth + 1);
                }
                continue;
            }
            List<Character> choices = new ArrayList<>();
            at = atom(pattern, at, choices);
            at = quantifier(pattern, at, repeat);
            int count = count(repeat, choice);
            for (int k = 0; k < count; k++) {
                out.append(
                        switch (choice) {
                            case LOWEST -> choices.getFirst();
                            case HIGHEST -> choices.getLast();
                            case RANDOM -> choices.get(random.nextInt(choices.size()));
                        });
            }
        }
    }

    private int count(int[] repeat, Choice choice) {
        return switch (choice) {
            case LOWEST -> repeat[0];
            case HIGHEST -> repeat[1];
            case RANDOM -> repeat[0] + random.nextInt(repeat[1] - repeat[0] + 1);
        };
    }

    private static int atom(String pattern, int at, List<Character> choices) {
        char c = pattern.charAt(at);
        if (c == '[') {
            int end = pattern.indexOf(']', at + 1);
            if (end < 0) {
                throw unsupported(pattern);
            }
            boolean negated = pattern.charAt(at + 1) == '^';
            List<Character> listed = negated ? new ArrayList<>() : choices;
            int i = negated ? at + 2 : at + 1;
            while (i < end) {
                int[] next = new int[1];
                char from = literal(pattern, i, next);
                i = next[0];
                char to = from;
                if (i < end - 1 && pattern.charAt(i) == '-') {
                    to = literal(pattern, i + 1, next);
                    i = next[0];
                }
                for (char each = from; each <= to; each++) {
                    listed.add(each);
                }
            }
            if (negated) {
                // Drawn from visible ASCII and the space: what a document's "anything but controls" means to a client.
                for (char each = ' '; each <= '~'; each++) {
                    if (!listed.contains(each)) {
                        choices.add(each);
                    }
                }
                if (choices.isEmpty()) {
                    throw unsupported(pattern);
                }
            }
            return end + 1;
        }
        if ("()|.".indexOf(c) >= 0) {
            throw unsupported(pattern);
        }
        int[] next = new int[1];
        choices.add(literal(pattern, at, next));
        return next[0];
    }

    private static char literal(String pattern, int at, int[] next) {
        char c = pattern.charAt(at);
        if (c != '\\') {
            next[0] = at + 1;
            return c;
        }
        char escaped = pattern.charAt(at + 1);
        if (escaped == 'x') {
            next[0] = at + 4;
            return (char) Integer.parseInt(pattern.substring(at + 2, at + 4), 16);
        }
        if (escaped == 'u') {
            next[0] = at + 6;
            return (char) Integer.parseInt(pattern.substring(at + 2, at + 6), 16);
        }
        if (Character.isLetterOrDigit(escaped)) {
            throw unsupported(pattern);
        }
        next[0] = at + 2;
        return escaped;
    }

    private static int quantifier(String pattern, int at, int[] repeat) {
        repeat[0] = 1;
        repeat[1] = 1;
        if (at >= pattern.length()) {
            return at;
        }
        switch (pattern.charAt(at)) {
            case '+' -> {
                repeat[0] = 1;
                repeat[1] = OPEN_REPEAT_MAX;
                return at + 1;
            }
            case '*' -> {
                repeat[0] = 0;
                repeat[1] = OPEN_REPEAT_MAX;
                return at + 1;
            }
            case '?' -> {
                repeat[0] = 0;
                repeat[1] = 1;
                return at + 1;
            }
            case '{' -> {
                int end = pattern.indexOf('}', at);
                String[] bounds = pattern.substring(at + 1, end).split(",", -1);
                repeat[0] = Integer.parseInt(bounds[0]);
                repeat[1] = bounds.length == 1
                        ? repeat[0]
                        : bounds[1].isEmpty() ? repeat[0] + OPEN_REPEAT_MAX : Integer.parseInt(bounds[1]);
                return end + 1;
            }
            default -> {
                return at;
            }
        }
    }

    private static IllegalArgumentException unsupported(String pattern) {
        return new IllegalArgumentException("pattern too complex for the fuzz generator: " + pattern);
    }
}
