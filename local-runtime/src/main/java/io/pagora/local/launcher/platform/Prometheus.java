package io.pagora.local.launcher.platform;

import io.pagora.local.launcher.Console;
import io.pagora.local.launcher.Exec;
import io.pagora.local.launcher.Layout;
import io.pagora.local.launcher.Supervisor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The platform's optional Prometheus, scraping every instance of the three services. */
public final class Prometheus {

    private final Platform platform;

    Prometheus(Platform platform) {
        this.platform = platform;
    }

    /**
     * Optional: Prometheus scraping the three services every 5 s (infra/prometheus/prometheus.yml; with --scale
     * prometheus-scale.yml, every instance). Skipped,
     * saying so, without a binary, with PAGORA_NO_PROMETHEUS=1, or when port 9090 is taken.
     */
    void startPrometheus() {
        if (platform.supervisor.alive("prometheus")) {
            Console.say("Prometheus already running (http://%s:%d)", Layout.HOST, Platform.PROMETHEUS_PORT);
            return;
        }
        if (platform.settings.flag("PAGORA_NO_PROMETHEUS")) {
            Console.say("Prometheus: skipped (PAGORA_NO_PROMETHEUS=1)");
            return;
        }
        Path binary =
                platform.settings.optional("PROMETHEUS_BIN").map(Path::of).orElseGet(() -> Exec.find("prometheus"));
        if (binary == null) {
            Console.say("Prometheus: no 'prometheus' on the PATH (nor PROMETHEUS_BIN): metrics are not collected;"
                    + " each service still serves them at /actuator/prometheus (docs/operations.md)");
            return;
        }
        if (!Files.isExecutable(binary)) {
            throw Console.fail("PROMETHEUS_BIN=%s is not an executable", binary);
        }
        if (Supervisor.portOpen(Platform.PROMETHEUS_PORT)) {
            Console.warn(
                    "Prometheus: port %d is already in use by another process: not starting ours",
                    Platform.PROMETHEUS_PORT);
            return;
        }
        Path data = platform.layout.var().resolve("prometheus");
        Platform.createDirectories(data);
        Path config = platform.layout
                .root()
                .resolve(
                        platform.runningTopology().scaled()
                                ? "infra/prometheus/prometheus-scale.yml"
                                : "infra/prometheus/prometheus.yml");
        Console.say(
                "starting Prometheus (%s) on %s:%d, scraping every instance of the three services every 5 s (the"
                        + " two TLS ones as the monitor; %s), data %s",
                binary, Layout.HOST, Platform.PROMETHEUS_PORT, config.getFileName(), data);
        if (!platform.runningTransport().equals("tls")) {
            Console.warn("plain-http: Prometheus scrapes payment-api and reporting-service over mutual TLS only;"
                    + " their targets stay down");
        }
        platform.supervisor.launch(
                "prometheus",
                List.of(
                        binary.toString(),
                        "--config.file=" + config,
                        "--storage.tsdb.path=" + data,
                        "--storage.tsdb.retention.time=2d",
                        "--web.listen-address=" + Layout.HOST + ":" + Platform.PROMETHEUS_PORT),
                Map.of(),
                true);
        platform.supervisor.waitForPort("prometheus", Platform.PROMETHEUS_PORT, 60);
    }
}
