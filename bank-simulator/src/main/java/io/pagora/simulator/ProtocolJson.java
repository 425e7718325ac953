package io.pagora.simulator;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON of docs/participants.md as this bank reads and writes it: the messages of its stream, its batches of
 * answers and the switch's result per answer, and its return requests. A bank keeps its own model of the protocol:
 * only the fields it acts on, as text, and unknown fields ignored (the protocol may add some).
 */
final class ProtocolJson {

    /** The prefix of every problem type the switch answers; what follows it is the problem's slug. */
    static final String PROBLEM_TYPES = "https://pagora.io/problems/";
    /** The verdict counted for a result that says neither a state nor a problem this bank can read. */
    static final String UNREADABLE = "unreadable";

    // A field a message leaves out reads as null, or 0 for an amount: a message of a type this bank does not know
    // may lack the fields it never reads, and must be counted as unknown, not fail its whole pull.
    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .build();

    private ProtocolJson() {}

    /** One answer of a batch: an acceptance has no reason, a refusal has one of the protocol's codes. */
    record Answer(
            String paymentId,
            Behaviour.Decision decision,
            @JsonInclude(JsonInclude.Include.NON_NULL) String reason) {

        static Answer accept(String paymentId) {
            return new Answer(paymentId, Behaviour.Decision.ACCEPT, null);
        }

        static Answer refuse(String paymentId, String reason) {
            return new Answer(paymentId, Behaviour.Decision.REFUSE, reason);
        }
    }

    /**
     * The switch's result for one answer of a batch: {@code name} is the payment's state ({@code SETTLED},
     * {@code REJECTED}) when the answer took effect ({@code applied}), else the slug of the problem that says why it
     * moved nothing, or {@value #UNREADABLE}.
     */
    record Verdict(int index, String name, boolean applied) {}

    private record Messages(List<SwitchClient.Message> messages) {}

    private record Answers(List<Answer> answers) {}

    private record Results(List<Result> results) {}

    private record Result(Integer index, String status, Problem problem) {}

    private record Problem(String type) {}

    private record ReturnRequest(long amountCentavos, String reason) {}

    /** The messages of a pull's 200 body ({@code {"messages":[…]}}); none when it holds none. */
    static List<SwitchClient.Message> messages(byte[] body) {
        Messages messages = JSON.readValue(body, Messages.class);
        return messages == null || messages.messages() == null ? List.of() : messages.messages();
    }

    /** The body of {@code POST /participants/{ispb}/answers}. */
    static String answers(List<Answer> answers) {
        return JSON.writeValueAsString(new Answers(answers));
    }

    /**
     * The results of a 200 answering call, one per answer the call held: each names the answer by its index (by
     * its place when it has none) and results for indexes outside the batch are ignored. A body this bank cannot
     * read gives every answer the verdict {@value #UNREADABLE}.
     */
    static List<Verdict> verdicts(String body, int answers) {
        Results results;
        try {
            results = JSON.readValue(body, Results.class);
        } catch (JacksonException e) {
            results = null;
        }
        List<Verdict> verdicts = new ArrayList<>(answers);
        if (results == null || results.results() == null) {
            for (int i = 0; i < answers; i++) {
                verdicts.add(new Verdict(i, UNREADABLE, false));
            }
            return verdicts;
        }
        for (int i = 0; i < results.results().size(); i++) {
            Result result = results.results().get(i);
            int index = result == null || result.index() == null ? i : result.index();
            if (result != null && index >= 0 && index < answers) {
                verdicts.add(verdictOf(index, result));
            }
        }
        return verdicts;
    }

    private static Verdict verdictOf(int index, Result result) {
        if (result.problem() != null) {
            String type = result.problem().type();
            boolean known = type != null && type.startsWith(PROBLEM_TYPES) && type.length() > PROBLEM_TYPES.length();
            return new Verdict(index, known ? type.substring(PROBLEM_TYPES.length()) : UNREADABLE, false);
        }
        return new Verdict(index, result.status() == null ? UNREADABLE : result.status(), true);
    }

    private record ReportRequest(String paymentId, String reason, String details) {}

    private record Analysis(
            String decision,
            @JsonInclude(JsonInclude.Include.NON_NULL) String reason) {}

    /** The body of {@code POST /infraction-reports}. */
    static String reportRequest(String paymentId) {
        return JSON.writeValueAsString(new ReportRequest(paymentId, "FRAUD", "reported by the bank simulator"));
    }

    /** The body of {@code POST /infraction-reports/{reportId}/analysis}: a rejection says why. */
    static String analysis(boolean accept) {
        return JSON.writeValueAsString(
                accept ? new Analysis("ACCEPT", null) : new Analysis("REJECT", "the simulated customer proved it"));
    }

    /** The body of {@code POST /payments/{paymentId}/returns}. */
    static String returnRequest(long amountCentavos, String reason) {
        return JSON.writeValueAsString(new ReturnRequest(amountCentavos, reason));
    }
}
