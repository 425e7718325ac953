package io.pagora.events;

/**
 * The consumer groups of the services' listeners, named once: each service may rename its own groups by a setting,
 * and the readers that watch another service's progress by its committed offsets (payment-api's and reporting's view
 * of clearing, local-runtime's of reporting) default to these same names.
 */
public final class ConsumerGroups {

    private ConsumerGroups() {}

    /** clearing-service's payment requests (reserve, instruct or ask the bank). */
    public static final String CLEARING = "pagora-clearing";
    /** clearing-service's expiry of the unanswered. */
    public static final String CLEARING_EXPIRY = "pagora-clearing-expiry";
    /** clearing-service's application of the banks' answers. */
    public static final String CLEARING_ANSWERS = "pagora-clearing-answers";
    /** reporting-service's projection of requests and outcomes into the read model. */
    public static final String REPORTING = "pagora-reporting";
}
