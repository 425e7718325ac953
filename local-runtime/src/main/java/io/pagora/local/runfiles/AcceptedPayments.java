package io.pagora.local.runfiles;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the load generator was told, one line per answer it logged (tab-separated, anywhere in a log
 * line so that a logger's prefix does not matter):
 *
 * <pre>
 *   ACCEPTED    IDEMPOTENCY_KEY  PAYMENT_ID  HTTP_STATUS  first|dup
 *   REFUSED     IDEMPOTENCY_KEY  HTTP_STATUS PROBLEM_TYPE
 *   UNANSWERED  IDEMPOTENCY_KEY  HTTP_STATUS              (no answer, or a 5xx: the outcome is unknown)
 *   CONFLICT    IDEMPOTENCY_KEY  HTTP_STATUS              (a key deliberately re-used for another payment, refused)
 * </pre>
 *
 * This is the one reading of them: the demo report, {@code verify}, {@code await-final} and {@code chaos-check} all
 * read the same files ({@code --accepted=FILE[,FILE...]}, in order: one demo's warm-up and measured runs) with
 * {@link #read(List)}, which keeps complete lines only (k6 may still be writing the last one, and a k6 that was
 * stopped may have left half a line), and print the same {@link #summary()}.
 */
public record AcceptedPayments(List<Acceptance> accepted, int refused, int unanswered, int conflictsRefused) {

    /** One 2xx answer: the payment id the API gave for that key; {@code duplicate} for a deliberate re-send. */
    public record Acceptance(String idempotencyKey, String paymentId, int httpStatus, boolean duplicate) {}

    public static AcceptedPayments read(Path file) throws IOException {
        return read(List.of(file));
    }

    /**
     * The answers of several load runs together (a demo's warm-up and measured runs; the chaos scenarios of one
     * platform), complete lines only; a file not written yet holds none.
     */
    public static AcceptedPayments read(List<Path> files) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Path file : files) {
            lines.addAll(completeLines(file));
        }
        return parse(lines);
    }

    /** {@code --accepted=FILE[,FILE...]}: the answer logs, in order. */
    public static List<Path> files(String option) {
        List<Path> files = new ArrayList<>();
        for (String name : option.split(",")) {
            if (!name.isBlank()) {
                files.add(Path.of(name.strip()));
            }
        }
        return files;
    }

    /** The lines of a file still being written, without its last line if that is not complete yet. */
    public static List<String> completeLines(Path file) throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int lastNewline = text.lastIndexOf('\n');
        return lastNewline < 0
                ? List.of()
                : Arrays.asList(text.substring(0, lastNewline).split("\n"));
    }

    /** The one line every tool prints about them. */
    public String summary() {
        long duplicates = accepted.stream().filter(Acceptance::duplicate).count();
        return String.format(
                "load generator answers: %d accepted (202; %d of them to deliberate duplicate re-sends), "
                        + "%d refused unexpectedly (4xx), %d unanswered/5xx, %d deliberate key re-uses with another amount refused",
                accepted.size(), duplicates, refused, unanswered, conflictsRefused);
    }

    /** Answer lines (other lines are skipped). */
    public static AcceptedPayments parse(List<String> lines) {
        List<Acceptance> accepted = new ArrayList<>();
        int refused = 0;
        int unanswered = 0;
        int conflicts = 0;
        for (String line : lines) {
            int start = firstOf(line, "ACCEPTED\t", "REFUSED\t", "UNANSWERED\t", "CONFLICT\t");
            if (start < 0) {
                continue;
            }
            String[] fields = line.substring(start).strip().split("\t");
            switch (fields[0]) {
                case "ACCEPTED" -> {
                    if (fields.length < 5) {
                        throw new IllegalArgumentException("malformed ACCEPTED line: " + line);
                    }
                    accepted.add(
                            new Acceptance(fields[1], fields[2], Integer.parseInt(fields[3]), "dup".equals(fields[4])));
                }
                case "REFUSED" -> refused++;
                case "CONFLICT" -> conflicts++;
                default -> unanswered++;
            }
        }
        return new AcceptedPayments(accepted, refused, unanswered, conflicts);
    }

    private static int firstOf(String line, String... markers) {
        int first = -1;
        for (String marker : markers) {
            int at = line.indexOf(marker);
            if (at >= 0 && (first < 0 || at < first)) {
                first = at;
            }
        }
        return first;
    }
}
