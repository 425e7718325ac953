package io.pagora.testing.fuzz;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Generates a string matching a simple regular expression: anchors, literals, character classes with
 * ranges and {@code \xHH} escapes, and the quantifiers {@code {n}}, {@code {n,m}}, {@code +}, {@code *},
 * {@code ?}. Enough for the patterns of API documents (ids, codes, visible-ASCII keys); anything else
 * fails loudly rather than producing a value that does not match.
 */
final class PatternSamples {

    /** {@code +} and {@code *} repeat at most this often. */
    private static final int OPEN_REPEAT_MAX = 8;

    private final Random random;

    PatternSamples(Random random) {
        this.random = random;
    }

    String matching(String pattern) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (at < pattern.length()) {
            char c = pattern.charAt(at);
            if (c == '^' || c == '$') {
                at++;
                continue;
            }
            List<Character> choices = new ArrayList<>();
            at = atom(pattern, at, choices);
            int[] repeat = new int[2];
            at = quantifier(pattern, at, repeat);
            int count = repeat[0] + random.nextInt(repeat[1] - repeat[0] + 1);
            for (int i = 0; i < count; i++) {
                out.append(choices.get(random.nextInt(choices.size())));
            }
        }
        return out.toString();
    }

    private static int atom(String pattern, int at, List<Character> choices) {
        char c = pattern.charAt(at);
        if (c == '[') {
            int end = pattern.indexOf(']', at + 1);
            if (end < 0 || pattern.charAt(at + 1) == '^') {
                throw unsupported(pattern);
            }
            int i = at + 1;
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
                    choices.add(each);
                }
            }
            return end + 1;
        }
        if ("(|.".indexOf(c) >= 0) {
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
            case '+' -> { repeat[0] = 1; repeat[1] = OPEN_REPEAT_MAX; return at + 1; }
            case '*' -> { repeat[0] = 0; repeat[1] = OPEN_REPEAT_MAX; return at + 1; }
            case '?' -> { repeat[0] = 0; repeat[1] = 1; return at + 1; }
            case '{' -> {
                int end = pattern.indexOf('}', at);
                String[] bounds = pattern.substring(at + 1, end).split(",", -1);
                repeat[0] = Integer.parseInt(bounds[0]);
                repeat[1] = bounds.length == 1 ? repeat[0]
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
