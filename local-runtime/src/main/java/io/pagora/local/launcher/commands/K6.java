package io.pagora.local.launcher.commands;

import io.pagora.local.launcher.Console;
import io.pagora.local.launcher.Exec;
import io.pagora.local.launcher.Supervisor;
import io.pagora.local.launcher.platform.Platform;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The one way the launcher starts k6 (demo, chaos, walkthrough): k6/pagora.js's load scenario between the
 * seeded customers (ACCOUNTS_FILE), over mutual TLS as one bank, the first of the accounts file (k6 presents one
 * client certificate per process). k6 trusts the local CA only through Go's SSL_CERT_FILE. LOG_ANSWERS=1 writes
 * one line per answer to the answers log (read back by local-runtime's AcceptedPayments).
 */
public final class K6 {

    static final String VERSION = "v1.8.1";

    private final Platform platform;
    private final Path binary;

    private K6(Platform platform, Path binary) {
        this.platform = platform;
        this.binary = binary;
    }

    /** K6_BIN, var/bin/k6, k6 on the PATH, or installed with {@code go install} into var/bin; empty without any. */
    static Optional<K6> find(Platform platform) {
        Optional<Path> configured =
                platform.settings.optional("K6_BIN").map(Path::of).filter(Files::isExecutable);
        if (configured.isPresent()) {
            return Optional.of(new K6(platform, configured.get()));
        }
        Path local = platform.layout.bin().resolve("k6");
        if (Files.isExecutable(local)) {
            return Optional.of(new K6(platform, local));
        }
        Path onPath = Exec.find("k6");
        if (onPath != null) {
            return Optional.of(new K6(platform, onPath));
        }
        if (Exec.find("go") == null) {
            return Optional.empty();
        }
        Console.say(
                "installing k6 %s with 'go install' into %s (one time, a few minutes) ...",
                VERSION, platform.layout.bin());
        Platform.createDirectories(platform.layout.bin());
        Exec.Result installed = Exec.capture(
                List.of("go", "install", "go.k6.io/k6@" + VERSION),
                Map.of("GOBIN", platform.layout.bin().toString()),
                platform.layout.log("k6-install"));
        if (installed.ok() && Files.isExecutable(local)) {
            return Optional.of(new K6(platform, local));
        }
        Console.warn("go install go.k6.io/k6@%s failed (log: %s)", VERSION, platform.layout.log("k6-install"));
        return Optional.empty();
    }

    public static K6 require(Platform platform, String who) {
        return find(platform)
                .orElseThrow(() -> Console.fail(
                        "%s needs k6 (K6_BIN, var/bin/k6, k6 on the PATH, or Go"
                                + " to install it: go install go.k6.io/k6@%s)",
                        who, VERSION));
    }

    public Path binary() {
        return binary;
    }

    /** Starts k6 in the background (its pid in var/run/k6.pid, output in var/log/k6.log). */
    Process start(String runId, Path answers, Map<String, String> extra) {
        if (!platform.runningTransport().equals("tls")) {
            throw Console.fail("k6 runs over mutual TLS only (the platform runs plain-http)");
        }
        Path ca = platform.layout.tls().resolve("ca.crt");
        if (!Files.isRegularFile(ca)) {
            throw Console.fail("k6 needs the local CA %s (infra/local/pagora certs)", ca);
        }
        Map<String, String> variables = new LinkedHashMap<>();
        variables.put("TLS_DIR", platform.layout.tls().toString());
        variables.put("SCENARIO", "load");
        variables.put("API_URL", platform.serviceUrls("payment-api"));
        variables.put("REPORTING_URL", platform.serviceUrl("reporting-service", ""));
        variables.put("CLEARING_URL", platform.serviceUrl("clearing-service", ""));
        variables.put("ACCOUNTS_FILE", platform.layout.accounts().toString());
        variables.put("LOG_ANSWERS", "1");
        variables.put("DUP_SHARE", Double.toString(platform.settings.share("DUP_SHARE")));
        variables.put("KEY_SHARE", Double.toString(platform.settings.share("KEY_SHARE")));
        variables.put("QR_SHARE", Double.toString(platform.settings.share("QR_SHARE")));
        variables.put("CONFLICT_SHARE", Double.toString(platform.settings.share("CONFLICT_SHARE")));
        variables.put("NSF_SHARE", Double.toString(platform.settings.share("NSF_SHARE")));
        variables.put("RUN_ID", runId);
        platform.settings.k6Fits();
        variables.put("MAX_VUS", Integer.toString(platform.settings.integer("K6_MAX_VUS")));
        variables.putAll(extra);
        List<String> command = new ArrayList<>(List.of(
                binary.toString(),
                "run",
                "--no-usage-report",
                "--quiet",
                "--no-color",
                "--address=",
                "--log-format=raw",
                "--log-output=file=" + answers));
        variables.forEach((name, value) -> command.addAll(List.of("-e", name + "=" + value)));
        command.add(platform.layout.root().resolve("k6/pagora.js").toString());
        return platform.supervisor
                .launch("k6", command, Map.of("SSL_CERT_FILE", ca.toString(), "K6_NO_USAGE_REPORT", "true"), false)
                .process();
    }

    /** Waits for k6 to end by itself; its exit status. */
    int await(Process k6) {
        try {
            int status = k6.waitFor();
            Supervisor.delete(platform.supervisor.pidFile("k6"));
            return status;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw Console.fail("interrupted while k6 ran");
        }
    }

    /** The summary k6/pagora.js prints at its end, from the k6 log. */
    static String summary(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            int start = -1;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith("==================== Pagora k6")) {
                    start = i;
                }
            }
            return start < 0 ? "" : String.join("\n", lines.subList(start, Math.min(lines.size(), start + 60)));
        } catch (IOException unreadable) {
            return "";
        }
    }
}
