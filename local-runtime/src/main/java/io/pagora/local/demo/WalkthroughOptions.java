package io.pagora.local.demo;

import io.pagora.local.cli.Options;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The walk-through's command line (walkthrough), read once: its defaults are written here. */
record WalkthroughOptions(Path root, List<String> files, int blockTimeoutSeconds) {

    static WalkthroughOptions parse(String[] args) {
        Options options = new Options("walkthrough", args);
        Path root = Path.of(options.string("root", ".")).toAbsolutePath().normalize();
        List<String> files =
                Arrays.asList(options.string("files", "README.md,k6/README.md").split(","));
        int blockTimeoutSeconds = options.integer("block-timeout-seconds", 300);
        options.rejectUnknown();
        return new WalkthroughOptions(root, files, blockTimeoutSeconds);
    }
}
