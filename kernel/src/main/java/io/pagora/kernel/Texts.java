package io.pagora.kernel;

/**
 * Bounds and cleans every free text that crosses a boundary (a bank's refusal reason, a customer's
 * description, a dead letter's reason). PostgreSQL refuses {@code U+0000} in text, and logs, headers
 * and dashboards choke on control characters and unbounded lengths: one such text must never fail a
 * whole batch it travels in.
 */
public final class Texts {

    private Texts() {}

    /**
     * {@code text} with every control character (C0, DEL, C1) and unpaired surrogate replaced by a
     * space, cut to at most {@code lengthMax} characters (an ellipsis marks the cut). Null stays null.
     */
    public static String clean(String text, int lengthMax) {
        if (text == null) {
            return null;
        }
        if (lengthMax < 1) {
            throw new IllegalArgumentException("lengthMax must be positive: " + lengthMax);
        }
        StringBuilder cleaned = null;
        int end = Math.min(text.length(), lengthMax);
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            boolean unpaired = Character.isHighSurrogate(c)
                    ? i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))
                    : Character.isLowSurrogate(c) && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)));
            if (Character.isISOControl(c) || unpaired) {
                if (cleaned == null) {
                    cleaned = new StringBuilder(end).append(text, 0, i);
                }
                cleaned.append(' ');
            } else if (cleaned != null) {
                cleaned.append(c);
            }
        }
        String result = cleaned == null ? text.substring(0, end) : cleaned.toString();
        if (text.length() <= lengthMax) {
            return result;
        }
        // Do not leave half a surrogate pair at the cut.
        int cut = Character.isHighSurrogate(result.charAt(result.length() - 1)) ? result.length() - 1 : result.length();
        return result.substring(0, Math.max(0, cut - 1)) + "…";
    }
}
