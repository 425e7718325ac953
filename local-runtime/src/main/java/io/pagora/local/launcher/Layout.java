package io.pagora.local.launcher;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where everything the launcher makes lives: under {@code var/} at the repository root (git-ignored).
 * Data per component, pid files in {@code var/run}, logs in {@code var/log/<component>.log}, the seeded
 * accounts and the demo's files in {@code var/demo}, the certificates in {@code var/tls}.
 */
public record Layout(Path root) {

    public static final String HOST = "127.0.0.1";

    public Layout {
        // Everything below writes under root/var: make sure root really is the repository.
        if (!Files.isRegularFile(root.resolve("pom.xml")) || !Files.isRegularFile(root.resolve("infra/local/pagora"))) {
            throw Console.fail("%s is not the Pagora repository (no pom.xml and infra/local/pagora)", root);
        }
    }

    public Path var() {
        return root.resolve("var");
    }

    public Path run() {
        return var().resolve("run");
    }

    public Path log() {
        return var().resolve("log");
    }

    public Path log(String component) {
        return log().resolve(component + ".log");
    }

    public Path demo() {
        return var().resolve("demo");
    }

    public Path accounts() {
        return demo().resolve("accounts.tsv");
    }

    public Path tls() {
        return var().resolve("tls");
    }

    public Path participants() {
        return tls().resolve("participants");
    }

    public Path bench() {
        return var().resolve("bench");
    }

    public Path chaos() {
        return var().resolve("chaos");
    }

    public Path bin() {
        return var().resolve("bin");
    }

    /** A small file of run state (ledger-backend, transport, postgres.mode, ...) in var/run. */
    public Path state(String name) {
        return run().resolve(name);
    }
}
