package io.pagora.local.platform;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where everything the launcher makes lives: under {@code var/} at the repository root (git-ignored).
 * Data per component, pid files in {@code var/run}, logs in {@code var/log/<component>.log}, the seeded
 * accounts and the demo's files in {@code var/demo}, the certificates in {@code var/tls}.
 */
record Layout(Path root) {

    static final String HOST = "127.0.0.1";

    Layout {
        // Everything below writes under root/var: make sure root really is the repository.
        if (!Files.isRegularFile(root.resolve("pom.xml")) || !Files.isRegularFile(root.resolve("infra/local/pagora"))) {
            throw Console.fail("%s is not the Pagora repository (no pom.xml and infra/local/pagora)", root);
        }
    }

    Path var() {
        return root.resolve("var");
    }

    Path run() {
        return var().resolve("run");
    }

    Path log() {
        return var().resolve("log");
    }

    Path log(String component) {
        return log().resolve(component + ".log");
    }

    Path demo() {
        return var().resolve("demo");
    }

    Path accounts() {
        return demo().resolve("accounts.tsv");
    }

    Path tls() {
        return var().resolve("tls");
    }

    Path participants() {
        return tls().resolve("participants");
    }

    Path bench() {
        return var().resolve("bench");
    }

    Path chaos() {
        return var().resolve("chaos");
    }

    Path bin() {
        return var().resolve("bin");
    }

    /** A small file of run state (ledger-backend, transport, postgres.mode, ...) in var/run. */
    Path state(String name) {
        return run().resolve(name);
    }
}
