package io.pagora.local.demo;

import io.pagora.kernel.Check;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the documentation's command blocks as a reader types them, so that none can go stale: a newcomer must never
 * meet a command that needs an unstated step. A block runs when the line just above its {@code ```sh} fence is
 * {@link #MARKER}; the platform is up and fresh ({@code infra/local/pagora walkthrough} sees to it).
 *
 * <p>Each block runs in a bash of its own, from the repository root, with errexit and pipefail, in the order of the
 * files given and of the blocks in them. {@code curl} exits 0 on any HTTP answer, so the blocks run with a
 * {@code curl} function that fails on an answer of 400 or above: a walk-through's call that is refused is a stale
 * walk-through. Fails when a block fails or outlasts its deadline, when a marker is not followed by a {@code sh}
 * block, and when no block ran at all (a check that saw no work fails).
 */
public final class Walkthrough {

    static final String MARKER = "<!-- walkthrough: runs as typed, in order, after infra/local/pagora up -->";
    private static final int BLOCKS_MAX = 32;
    private static final int BLOCK_LINES_MAX = 64;

    /** Wraps curl: the answer is printed as curl prints it, and a status of 400 or above fails the block. */
    static final String PREAMBLE = """
            set -euo pipefail
            curl() {
              local body status
              body="$(mktemp)"
              if ! status="$(command curl -sS --max-time 30 -o "$body" -w '%{http_code}' "$@")"; then
                cat "$body"; rm -f "$body"; return 1
              fi
              cat "$body"; echo; rm -f "$body"
              if [ "$status" -ge 400 ]; then
                echo "walkthrough: HTTP $status from: curl $*" >&2
                return 1
              fi
            }
            """;

    record Block(Path file, int line, String script) {

        String where() {
            return file + ":" + line;
        }
    }

    private Walkthrough() {}

    public static void main(String[] args) throws Exception {
        WalkthroughOptions options = WalkthroughOptions.parse(args);
        int blockTimeoutSeconds = options.blockTimeoutSeconds();
        Check.that(
                blockTimeoutSeconds > 0 && blockTimeoutSeconds <= 3600,
                "block-timeout-seconds %d",
                blockTimeoutSeconds);

        List<Block> blocks = new ArrayList<>();
        for (String file : options.files()) {
            Path path = options.root().resolve(file);
            blocks.addAll(blocks(Path.of(file), Files.readAllLines(path, StandardCharsets.UTF_8)));
        }
        if (blocks.isEmpty()) {
            System.out.println(
                    "walkthrough: FAIL: no marked block in " + options.files() + " (marker: " + MARKER + ")");
            System.exit(1);
        }
        for (Block block : blocks) {
            System.out.println("walkthrough: " + block.where() + "\n"
                    + block.script().indent(4).stripTrailing());
            int status = run(block, options.root(), blockTimeoutSeconds);
            if (status != 0) {
                System.out.println("walkthrough: FAIL: the block at " + block.where() + " exited " + status);
                System.exit(1);
            }
        }
        System.out.println("walkthrough: PASS: " + blocks.size() + " blocks of " + options.files() + " ran as typed");
    }

    /** The marked blocks of one Markdown file, in order. */
    static List<Block> blocks(Path file, List<String> lines) {
        List<Block> blocks = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).strip().equals(MARKER)) {
                continue;
            }
            int fence = i + 1;
            if (fence >= lines.size() || !lines.get(fence).strip().equals("```sh")) {
                throw new IllegalArgumentException(
                        file + ":" + (i + 1) + ": the walk-through marker must stand just" + " above a ```sh block");
            }
            int end = fence + 1;
            while (end < lines.size() && !lines.get(end).strip().equals("```")) {
                end++;
            }
            if (end >= lines.size() || end - fence - 1 > BLOCK_LINES_MAX || end == fence + 1) {
                throw new IllegalArgumentException(file + ":" + (fence + 1) + ": a walk-through block is closed by ```,"
                        + " not empty, and at most " + BLOCK_LINES_MAX + " lines");
            }
            blocks.add(new Block(file, fence + 1, String.join("\n", lines.subList(fence + 1, end)) + "\n"));
            Check.that(blocks.size() <= BLOCKS_MAX, "at most %d walk-through blocks per file", BLOCKS_MAX);
            i = end;
        }
        return blocks;
    }

    /** Runs one block; its output goes to ours. */
    static int run(Block block, Path root, int timeoutSeconds) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("bash", "-c", PREAMBLE + block.script())
                .directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT)
                .start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            System.out.println("walkthrough: the block at " + block.where() + " outlasted " + timeoutSeconds + " s");
            return 124;
        }
        return process.exitValue();
    }
}
