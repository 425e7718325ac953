package io.pagora.ledger.port.invariants;

import java.util.ArrayList;
import java.util.List;

/**
 * One money invariant's answer: it holds when {@code violations} is empty. Each violation is a sentence
 * with the evidence (ids, amounts), so a failing test or a failing demo report says what is wrong
 * without a debugger. The checker never asserts: tests wrap a finding in a one-line assertion, the demo
 * report prints it.
 */
public record Finding(String invariant, String summary, List<String> violations) {

    /** Violations kept per finding: a broken run must still be reported, not run out of memory. */
    public static final int VIOLATIONS_KEPT_MAX = 10_000;

    public Finding {
        violations = List.copyOf(violations);
    }

    public boolean holds() {
        return violations.isEmpty();
    }

    /** The finding and, when it fails, its violations (at most {@code listedMax}, then a count of the rest). */
    public String describe(int listedMax) {
        StringBuilder text = new StringBuilder(invariant).append(": ").append(summary);
        violations.stream()
                .limit(listedMax)
                .forEach(violation -> text.append("\n  - ").append(violation));
        if (violations.size() > listedMax) {
            text.append("\n  … and ").append(violations.size() - listedMax).append(" more");
        }
        return text.toString();
    }

    /** Collects the violations of one check, bounded by {@link #VIOLATIONS_KEPT_MAX}. */
    public static final class Violations {

        private final List<String> kept = new ArrayList<>();
        private boolean truncated;

        public void add(String violation) {
            if (kept.size() < VIOLATIONS_KEPT_MAX) {
                kept.add(violation);
            } else if (!truncated) {
                truncated = true;
                kept.add("… more violations not kept (at most " + VIOLATIONS_KEPT_MAX + " are)");
            }
        }

        public void addAll(List<String> violations) {
            violations.forEach(this::add);
        }

        public Finding finding(String invariant, String summary) {
            return new Finding(invariant, summary, kept);
        }
    }
}
