package io.pagora.testing.fuzz;

import io.pagora.testing.fuzz.OpenApiDocument.Operation;
import io.pagora.testing.fuzz.OpenApiDocument.Parameter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A schema-driven fuzz run against one service on 127.0.0.1: for every operation of its OpenAPI
 * document, a well-formed request derived from the schemas, then every systematic way to break it
 * ({@link Mutations}), wrong methods, unknown paths and the undocumented probes (actuator), then random
 * compositions of two or three breakages until the request or time budget is spent. Each answer must be
 * a status documented for the operation, never a 5xx, every error an RFC 9457 problem+json document
 * with a Pagora problem type, and no body may carry a stack trace. Deterministic for a seed, except
 * where the time budget cuts the random phase short (never the systematic phase).
 *
 * <p>Over 400 lines on purpose: the two phases, the budget and the judging of each answer share one run's state and
 * report; the breakages themselves are {@link Mutations}.
 */
public final class OpenApiFuzz {

    /** An endpoint the document does not describe (actuator), with the statuses it may answer. */
    public record Probe(String path, Set<Integer> statuses) {

        /** What an undocumented GET endpoint may answer: its content, or a client error. */
        static final Set<Integer> GET_STATUSES = Set.of(200, 400, 404, 405, 406);

        /** What a static file may answer besides: a range of it, not modified, or a range beyond it. */
        static final Set<Integer> FILE_STATUSES = Set.of(200, 206, 304, 400, 404, 405, 406, 416);

        public static Probe get(String path) {
            return new Probe(path, GET_STATUSES);
        }

        /** A static file, served with HTTP's conditional and range requests. */
        public static Probe file(String path) {
            return new Probe(path, FILE_STATUSES);
        }

        /** The actuator endpoints every Pagora service exposes. */
        public static List<Probe> actuator() {
            return List.of(
                    get("/actuator"),
                    get("/actuator/health"),
                    get("/actuator/health/liveness"),
                    get("/actuator/health/readiness"),
                    get("/actuator/prometheus"),
                    get("/actuator/info"));
        }
    }

    /**
     * @param bodyBytesMax the largest body any operation accepts; "oversized" bodies are one byte more
     * @param knownValues valid values for path parameters and body properties by name, where a generated one would only
     *     reach "not found" (optional; the schema's own values are used otherwise)
     * @param tls the caller's TLS context (its client certificate) for a service with mutual TLS; null for plain HTTP
     * @param notBoundable names of parameters and body fields whose schema cannot say which values the API takes (a
     *     recent end-to-end id of the caller's bank, an opaque cursor): their boundary values are not sent as admitted
     */
    public record Config(
            int port,
            long seed,
            int requestsMax,
            Duration timeBudget,
            int bodyBytesMax,
            List<Probe> probes,
            Map<String, String> knownValues,
            SSLContext tls,
            Set<String> notBoundable) {

        public Config {
            notBoundable = Set.copyOf(notBoundable);
        }

        public Config(
                int port,
                long seed,
                int requestsMax,
                Duration timeBudget,
                int bodyBytesMax,
                List<Probe> probes,
                Map<String, String> knownValues,
                SSLContext tls) {
            this(port, seed, requestsMax, timeBudget, bodyBytesMax, probes, knownValues, tls, Set.of());
        }

        public static final long SEED_DEFAULT = 20_261_121L;
        public static final int REQUESTS_MAX_DEFAULT = 10_000;
        public static final Duration TIME_BUDGET = Duration.ofSeconds(50);

        /**
         * The suite's run: seed {@code -Dpagora.fuzz.seed}, request budget {@code -Dpagora.fuzz.requests} and time
         * budget {@code -Dpagora.fuzz.seconds} (on a machine too busy to send the systematic phase in 50 s).
         */
        public static Config standard(int port, int bodyBytesMax, List<Probe> probes, Map<String, String> knownValues) {
            return new Config(
                    port,
                    Long.getLong("pagora.fuzz.seed", SEED_DEFAULT),
                    Integer.getInteger("pagora.fuzz.requests", REQUESTS_MAX_DEFAULT),
                    Duration.ofSeconds(Long.getLong("pagora.fuzz.seconds", TIME_BUDGET.toSeconds())),
                    bodyBytesMax,
                    probes,
                    knownValues,
                    null);
        }

        /** The same run over TLS, as the caller {@code tls} presents (a service with mutual TLS). */
        public Config over(SSLContext tls) {
            return new Config(
                    port, seed, requestsMax, timeBudget, bodyBytesMax, probes, knownValues, tls, notBoundable);
        }

        /** The same run, not sending the boundary values of {@code names} (see {@link #notBoundable}). */
        public Config notBoundable(Set<String> names) {
            return new Config(port, seed, requestsMax, timeBudget, bodyBytesMax, probes, knownValues, tls, names);
        }
    }

    /** One answer that breaks the rules. */
    public record Finding(
            String operation,
            String mutation,
            String method,
            String target,
            int status,
            String why,
            String bodyExcerpt) {

        @Override
        public String toString() {
            return operation + " [" + mutation + "] " + method + " " + Mutations.abbreviate(target) + " -> " + status
                    + ": " + why + (bodyExcerpt.isEmpty() ? "" : " | " + bodyExcerpt);
        }
    }

    /**
     * @param systematicRequests what the systematic phase sent (every operation's every mutation, methods, unknown
     *     paths, probes); the random compositions follow
     * @param systematicComplete the systematic phase was sent whole, within the budgets: false means some operations'
     *     classes of input were never sent (a run to fail, not to trust)
     */
    public record Report(
            long seed,
            int requests,
            long elapsedMs,
            boolean budgetExhausted,
            int systematicRequests,
            boolean systematicComplete,
            List<Finding> findings,
            Map<Integer, Integer> statusCounts) {

        /** One line per distinct defect (operation and reason), with how often it occurred and one example. */
        public String summary() {
            Map<String, List<Finding>> byDefect = new LinkedHashMap<>();
            for (Finding finding : findings) {
                byDefect.computeIfAbsent(
                                finding.operation() + " | " + finding.why().replaceAll("[0-9]+ bytes", "N bytes"),
                                k -> new ArrayList<>())
                        .add(finding);
            }
            StringBuilder text = new StringBuilder("fuzz seed=" + seed + " requests=" + requests + " elapsedMs="
                    + elapsedMs
                    + (budgetExhausted ? " (request or time budget reached)" : "") + " systematic=" + systematicRequests
                    + (systematicComplete ? "" : " (CUT SHORT by the budget)") + " statuses=" + statusCounts
                    + " findings="
                    + findings.size() + " distinct=" + byDefect.size());
            byDefect.values().stream()
                    .limit(DISTINCT_SHOWN_MAX)
                    .forEach(group -> text.append("\n  ")
                            .append(group.size())
                            .append("x ")
                            .append(group.getFirst()));
            return text.toString();
        }

        /** Prints the summary and writes every finding to {@code target/<service>-fuzz-report.txt}. */
        public Report published(String service) {
            System.out.println(service + " " + summary());
            writeTo(java.nio.file.Path.of("target", service + "-fuzz-report.txt"));
            return this;
        }

        /** Every finding, one a line, after the summary: the file to read when the summary is not enough. */
        public void writeTo(java.nio.file.Path file) {
            StringBuilder text = new StringBuilder(summary()).append("\n\nall findings:\n");
            findings.forEach(finding -> text.append(finding).append('\n'));
            try {
                java.nio.file.Files.writeString(file, text);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    private static final int DISTINCT_SHOWN_MAX = 200;

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Pattern STACK_TRACE = Pattern.compile(
            "(\\tat |\\bat [\\w$.]+\\([\\w$]+\\.java:\\d+\\)|\\b(java|javax|jakarta|org|com|io|tools)\\.[\\w$.]+(Exception|Error)\\b"
                    + "|Caused by:)");
    private static final int RANDOM_COMPOSITION_MAX = 3;

    private final OpenApiDocument document;
    private final Config config;
    private final Random random;
    private final RawHttp http;
    private final List<Finding> findings = new ArrayList<>();
    private final Map<Integer, Integer> statusCounts = new TreeMap<>();
    private long startedNanos;
    private int requests;

    private OpenApiFuzz(OpenApiDocument document, Config config) {
        this.document = document;
        this.config = config;
        this.random = new Random(config.seed());
        this.http = new RawHttp(config.port(), 15_000, config.tls());
    }

    public static Report run(OpenApiDocument document, Config config) {
        System.out.println("fuzz seed " + config.seed() + " (replay with -Dpagora.fuzz.seed=" + config.seed() + ")");
        return new OpenApiFuzz(document, config).run();
    }

    private Report run() {
        startedNanos = System.nanoTime();
        List<Operation> operations = document.operations();
        Map<Operation, FuzzRequest> valid = new LinkedHashMap<>();
        Map<Operation, List<Mutation>> mutations = new LinkedHashMap<>();
        // Not composed at random with the others: a broken request may be a 400 whatever else it holds.
        Map<Operation, List<Mutation>> admitted = new LinkedHashMap<>();
        for (Operation operation : operations) {
            Map<String, String> pathValues = pathValues(operation);
            FuzzRequest request = wellFormed(operation, pathValues);
            valid.put(operation, request);
            List<Mutation> all = new ArrayList<>();
            all.addAll(Mutations.headers(operation, request));
            all.addAll(Mutations.query(operation));
            all.addAll(Mutations.path(operation, pathValues));
            all.addAll(Mutations.edgeIds(operation, pathValues));
            all.addAll(Mutations.body(operation, config.bodyBytesMax()));
            mutations.put(operation, all);
            admitted.put(operation, Mutations.admitted(operation, pathValues, config.notBoundable()));
        }
        // The systematic phase is bounded by its own size (every operation's every mutation), not by the clock: a slow
        // machine takes longer but still sends every class of input. The time budget bounds the random phase only.
        systematic(operations, valid, mutations, admitted);
        int systematicRequests = requests;
        boolean systematicComplete = withinBudget();
        timeBound = true;
        randomCompositions(operations, valid, mutations);
        long elapsedMs = (System.nanoTime() - startedNanos) / 1_000_000;
        return new Report(
                config.seed(),
                requests,
                elapsedMs,
                !withinBudget(),
                systematicRequests,
                systematicComplete,
                List.copyOf(findings),
                statusCounts);
    }

    private void systematic(
            List<Operation> operations,
            Map<Operation, FuzzRequest> valid,
            Map<Operation, List<Mutation>> mutations,
            Map<Operation, List<Mutation>> admitted) {
        Set<String> paths = new HashSet<>();
        for (Operation operation : operations) {
            send(valid.get(operation));
            for (Mutation mutation : mutations.get(operation)) {
                send(mutation.applyTo(valid.get(operation)));
            }
            for (Mutation mutation : admitted.get(operation)) {
                send(mutation.applyTo(valid.get(operation)));
            }
            if (paths.add(operation.path())) {
                Mutations.methods(
                                operation.path(),
                                document.methodsOf(operation.path()),
                                valid.get(operation).target())
                        .forEach(this::send);
            }
        }
        for (String path : Mutations.UNKNOWN_PATHS) {
            for (String method : List.of("GET", "POST")) {
                send(new FuzzRequest(
                        "unknown path",
                        path,
                        method,
                        path,
                        List.of(Map.entry("Accept", "*/*")),
                        null,
                        Mutations.UNKNOWN_PATH_STATUSES));
            }
        }
        for (Probe probe : config.probes()) {
            probe(probe);
        }
    }

    /** The undocumented endpoints get the header, query and method breakages a GET can have. */
    private void probe(Probe probe) {
        Operation asOperation = new Operation("GET", probe.path(), List.of(), null, probe.statuses());
        FuzzRequest request = new FuzzRequest(
                "GET " + probe.path(),
                "",
                "GET",
                probe.path(),
                List.of(Map.entry("Accept", "*/*")),
                null,
                probe.statuses());
        send(request);
        for (Mutation mutation : Mutations.headers(asOperation, request)) {
            send(mutation.applyTo(request));
        }
        for (String junk :
                List.of("a=%zz", "includedNames=%00", "includedNames=" + "n".repeat(5000), "%C3%28=1", "x=%")) {
            send(request.withTarget(probe.path() + "?" + junk).withMutation("query " + Mutations.abbreviate(junk)));
        }
        for (String junk : List.of("/%00", "/nope", "/%ZZ", "/..%2f..")) {
            send(new FuzzRequest(
                    "GET " + probe.path(),
                    "path + " + junk,
                    "GET",
                    probe.path() + junk,
                    request.headers(),
                    null,
                    Set.of(400, 404)));
        }
        Mutations.methods(probe.path(), Set.of("GET"), probe.path()).forEach(this::send);
    }

    private void randomCompositions(
            List<Operation> operations, Map<Operation, FuzzRequest> valid, Map<Operation, List<Mutation>> mutations) {
        // A document without operations (a run that only probes, e.g. as another caller) has nothing to compose.
        // Bounded by the request budget: every round sends one request.
        while (withinBudget() && !operations.isEmpty()) {
            Operation operation = operations.get(random.nextInt(operations.size()));
            List<Mutation> candidates = mutations.get(operation);
            FuzzRequest request = valid.get(operation);
            int count = 2 + random.nextInt(RANDOM_COMPOSITION_MAX - 1);
            for (int i = 0; i < count; i++) {
                request = candidates.get(random.nextInt(candidates.size())).applyTo(request);
            }
            send(request);
        }
    }

    private boolean withinBudget() {
        return requests < config.requestsMax()
                && (!timeBound
                        || System.nanoTime() - startedNanos
                                < config.timeBudget().toNanos());
    }

    /** False during the systematic phase, which the request budget and its own size bound; true after it. */
    private boolean timeBound;

    private void send(FuzzRequest request) {
        if (!withinBudget()) {
            return;
        }
        requests++;
        RawHttp.Response response = http.exchange(request);
        statusCounts.merge(response.status(), 1, Integer::sum);
        String why = violation(request, response);
        if (why != null) {
            String excerpt = response.bodyText().replaceAll("\\s+", " ");
            findings.add(new Finding(
                    request.operation(),
                    request.mutation(),
                    request.method(),
                    request.target(),
                    response.status(),
                    why,
                    excerpt.length() > 300 ? excerpt.substring(0, 300) + "…" : excerpt));
        }
    }

    /** Why this answer breaks the rules, or null when it does not. */
    static String violation(FuzzRequest request, RawHttp.Response response) {
        if (response.status() == 0) {
            return "no HTTP answer (" + response.failure() + ")";
        }
        if (response.status() >= 500) {
            return "server error " + response.status();
        }
        if (STACK_TRACE.matcher(response.bodyText()).find()) {
            return "stack trace or exception class in the body";
        }
        if (!request.allowedStatuses().contains(response.status())) {
            return "status " + response.status() + " not documented (documented: "
                    + new TreeMap<>(request.allowedStatuses().stream()
                                    .collect(java.util.stream.Collectors.toMap(s -> s, s -> "")))
                            .keySet()
                    + ")";
        }
        if (response.status() >= 400 && !"HEAD".equals(request.method())) {
            return problemViolation(response);
        }
        return null;
    }

    private static String problemViolation(RawHttp.Response response) {
        String contentType = response.header("Content-Type");
        if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("application/problem+json")) {
            return "error body is " + contentType + ", not application/problem+json";
        }
        JsonNode problem;
        try {
            problem = JSON.readTree(response.body());
        } catch (JacksonException e) {
            return "problem+json body is not JSON";
        }
        if (problem == null || !problem.path("type").asString("").startsWith("https://pagora.io/problems/")) {
            return "problem without a Pagora problem type";
        }
        if (problem.path("status").asInt() != response.status()
                || problem.path("title").asString("").isEmpty()) {
            return "problem's status or title does not match the answer";
        }
        return null;
    }

    private Map<String, String> pathValues(Operation operation) {
        Map<String, String> values = new LinkedHashMap<>();
        SchemaSamples samples = new SchemaSamples(random, Map.of());
        for (Parameter parameter : operation.in("path")) {
            values.put(
                    parameter.name(),
                    config.knownValues()
                            .getOrDefault(
                                    parameter.name(),
                                    Mutations.encode(
                                            samples.valid(parameter.schema()).asString())));
        }
        return values;
    }

    private FuzzRequest wellFormed(Operation operation, Map<String, String> pathValues) {
        SchemaSamples samples = new SchemaSamples(random, config.knownValues());
        StringBuilder target = new StringBuilder(Targets.expand(operation.path(), pathValues, "", ""));
        List<Map.Entry<String, String>> headers = new ArrayList<>();
        headers.add(Map.entry("Accept", "*/*"));
        for (Parameter parameter : operation.parameters()) {
            if (parameter.in().equals("query")) {
                if (!parameter.required()
                        && !config.knownValues().containsKey(parameter.name())
                        && config.notBoundable().contains(parameter.name())) {
                    continue; // a generated value of it is refused (an opaque cursor): the request would be a 400
                }
                String value = config.knownValues()
                        .getOrDefault(
                                parameter.name(),
                                samples.valid(parameter.schema()).asString());
                target.append(target.indexOf("?") < 0 ? "?" : "&")
                        .append(parameter.name())
                        .append('=')
                        .append(Mutations.encode(value));
            } else if (parameter.in().equals("header")) {
                // A known value (an end user's CPF, which the code checks beyond its pattern), else a fresh one (an
                // Idempotency-Key: any visible ASCII).
                String value = config.knownValues()
                        .getOrDefault(parameter.name(), "fuzz-" + Long.toHexString(random.nextLong()));
                headers.add(Map.entry(parameter.name(), value));
            }
        }
        byte[] body = null;
        if (operation.bodySchema() != null) {
            headers.add(Map.entry("Content-Type", "application/json"));
            body = JSON.writeValueAsString(samples.valid(operation.bodySchema()))
                    .getBytes(StandardCharsets.UTF_8);
        }
        return new FuzzRequest(
                operation.key(),
                "",
                operation.method(),
                target.toString(),
                List.copyOf(headers),
                body,
                operation.statuses());
    }
}
