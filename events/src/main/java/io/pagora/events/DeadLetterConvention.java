package io.pagora.events;

import io.pagora.kernel.Check;
import io.pagora.kernel.Texts;
import java.nio.charset.StandardCharsets;

/**
 * How every Pagora service sets aside a record it cannot process, so that one tool (and one person) reads every
 * dead-letter topic the same way: a record of topic {@code T} goes to {@code T}{@value #SUFFIX} with its key, value
 * and headers, Spring's {@code kafka_dlt-original-*} headers, and why in header {@value #REASON_HEADER} (UTF-8
 * text). Clearing and reporting both write {@link Topics#PAYMENTS_REQUESTED_DEAD_LETTER}, so one header name is
 * not a matter of taste.
 */
public final class DeadLetterConvention {

    public static final String SUFFIX = ".dlt";
    public static final String REASON_HEADER = "pagora-dead-letter-reason";
    /**
     * A reason is cleaned of control characters (it comes from a record's content or an exception message and
     * travels in a header and in logs) and cut to this many characters: enough for a root cause and its detail.
     */
    public static final int REASON_CHARS_MAX = 1_000;

    private DeadLetterConvention() {}

    /** Where a record of {@code topic} goes when it cannot be processed. */
    public static String topicOf(String topic) {
        Check.that(topic != null && !topic.endsWith(SUFFIX), "a dead letter's topic is a payment topic: %s", topic);
        return topic + SUFFIX;
    }

    /** The reason as it is logged and sent: cleaned and bounded. */
    public static String reason(String text) {
        Check.that(text != null, "a dead letter has a reason");
        return Texts.clean(text, REASON_CHARS_MAX);
    }

    /** The value of header {@value #REASON_HEADER}. */
    public static byte[] reasonHeader(String text) {
        return reason(text).getBytes(StandardCharsets.UTF_8);
    }
}
