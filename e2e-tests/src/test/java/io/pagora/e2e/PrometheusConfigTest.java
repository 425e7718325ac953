package io.pagora.e2e;

import static io.pagora.e2e.support.YamlFiles.list;
import static io.pagora.e2e.support.YamlFiles.map;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.e2e.support.Repository;
import io.pagora.e2e.support.YamlFiles;
import io.pagora.testing.Http;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;

/**
 * Proves the monitoring files are usable as they are: the Prometheus configurations scrape exactly the
 * three services, at the ports their own configuration gives them, every 5 s, on /actuator/prometheus
 * (the local launcher's file on 127.0.0.1, docker compose's by service name); Grafana's provisioning
 * points at that Prometheus and the dashboards at that data source; docker-compose.yml mounts the files.
 * With {@code promtool} on the PATH (Debian's {@code prometheus} package; .ci/run installs it) both
 * configurations and every dashboard query are also checked by Prometheus' own parser; without it those
 * checks are reported SKIPPED, with the reason.
 */
class PrometheusConfigTest {

    static final List<String> SERVICES = List.of("payment-api", "clearing-service", "reporting-service");
    static final String LOCAL = "infra/prometheus/prometheus.yml";
    static final String COMPOSE = "infra/prometheus/prometheus-compose.yml";
    /** The scaled platform's ({@code --scale}); its second instances listen local-runtime's Topology step above. */
    static final String SCALE = "infra/prometheus/prometheus-scale.yml";

    static final int SECOND_INSTANCE_PORT_STEP = 100;

    /** The alerting rules, relative to the configurations' directory, as every configuration names them. */
    static final String RULES = "rules/liquidity.yml";
    /** promtool's unit tests of those rules: each alert fires when it should, and only then. */
    static final String RULES_TESTS = "infra/prometheus/rules/liquidity.test.yml";

    @Test
    void theLocalConfigurationScrapesTheThreeServicesAtTheirPorts() {
        Map<String, String> targets = scrapeTargets(LOCAL);
        Map<String, String> expected = new LinkedHashMap<>();
        SERVICES.forEach(service -> expected.put(service, "127.0.0.1:" + configuredPort(service)));
        assertThat(targets).as("%s: job -> target", LOCAL).isEqualTo(expected);
    }

    @Test
    void theScaledConfigurationScrapesBothInstancesOfEachService() {
        Map<String, List<String>> targets = scrapeTargetLists(SCALE);
        Map<String, List<String>> expected = new LinkedHashMap<>();
        SERVICES.forEach(service -> expected.put(
                service,
                List.of(
                        "127.0.0.1:" + configuredPort(service),
                        "127.0.0.1:" + (configuredPort(service) + SECOND_INSTANCE_PORT_STEP))));
        assertThat(targets).as("%s: job -> targets", SCALE).isEqualTo(expected);
        assertThat(YamlFiles.load(SCALE).get("scrape_configs"))
                .as("the same jobs as %s but for their targets", LOCAL)
                .isEqualTo(withoutTargets(LOCAL, SCALE));
    }

    @Test
    void theComposeConfigurationScrapesTheComposeServicesAtTheirPorts() {
        Map<String, String> targets = scrapeTargets(COMPOSE);
        Map<String, String> expected = new LinkedHashMap<>();
        SERVICES.forEach(service -> expected.put(service, service + ":" + configuredPort(service)));
        assertThat(targets).as("%s: job -> target", COMPOSE).isEqualTo(expected);

        Map<String, Object> compose = YamlFiles.load("docker-compose.yml");
        Map<String, Object> services = map(compose.get("services"));
        assertThat(services).containsKeys("prometheus", "grafana");
        assertThat(list(map(services.get("prometheus")).get("volumes")))
                .contains("./" + COMPOSE + ":/etc/prometheus/prometheus.yml:ro");
        assertThat(list(map(services.get("prometheus")).get("ports"))).contains("127.0.0.1:9090:9090");
        assertThat(list(map(services.get("grafana")).get("ports"))).contains("127.0.0.1:3001:3000");
        assertThat(list(map(services.get("grafana")).get("volumes")))
                .contains(
                        "./infra/grafana/provisioning/datasources:/etc/grafana/provisioning/datasources:ro",
                        "./infra/grafana/provisioning/dashboards:/etc/grafana/provisioning/dashboards:ro",
                        "./infra/grafana/dashboards:/var/lib/grafana/dashboards:ro");
        for (String service : SERVICES) {
            assertThat(list(map(services.get(service)).get("ports")))
                    .as("%s's published port", service)
                    .contains("127.0.0.1:" + configuredPort(service) + ":" + configuredPort(service));
        }
    }

    @Test
    void everyConfigurationLoadsTheAlertingRulesAndComposeMountsThem() {
        for (String config : List.of(LOCAL, COMPOSE, SCALE)) {
            assertThat(list(YamlFiles.load(config).get("rule_files")))
                    .as("%s rule_files", config)
                    .containsExactly(RULES);
            assertThat(Repository.path("infra/prometheus/" + RULES)).exists();
        }
        Map<String, Object> prometheus =
                map(map(YamlFiles.load("docker-compose.yml").get("services")).get("prometheus"));
        assertThat(list(prometheus.get("volumes"))).contains("./infra/prometheus/rules:/etc/prometheus/rules:ro");
    }

    @Test
    void promtoolAcceptsTheAlertingRulesAndTheirTests() {
        Optional<Path> promtool = onPath("promtool");
        Assumptions.assumeTrue(
                promtool.isPresent(),
                "promtool is not on the PATH (Debian: apt-get install prometheus): the alerting rules' checks and"
                        + " unit tests are SKIPPED");
        run(
                promtool.get(),
                "check",
                "rules",
                Repository.path("infra/prometheus/" + RULES).toString());
        run(promtool.get(), "test", "rules", Repository.path(RULES_TESTS).toString());
    }

    @Test
    void grafanaReadsThatPrometheusAndEveryPanelNamesItsDataSource() {
        Map<String, Object> datasource =
                map(list(YamlFiles.load("infra/grafana/provisioning/datasources/prometheus.yml")
                                .get("datasources"))
                        .getFirst());
        assertThat(datasource).containsEntry("type", "prometheus").containsEntry("url", "http://prometheus:9090");
        Object uid = datasource.get("uid");
        Map<String, Object> provider = map(list(YamlFiles.load("infra/grafana/provisioning/dashboards/dashboards.yml")
                        .get("providers"))
                .getFirst());
        assertThat(map(provider.get("options"))).containsEntry("path", "/var/lib/grafana/dashboards");

        List<String> titles = new ArrayList<>();
        for (Path file : DashboardMetricsTest.dashboardFiles()) {
            JsonNode dashboard = Http.JSON.readTree(Repository.read(file));
            titles.add(dashboard.path("title").asString());
            assertThat(dashboard.path("uid").asString())
                    .as("%s has a stable uid", file)
                    .isNotEmpty();
            for (JsonNode panel : dashboard.path("panels")) {
                if (panel.path("type").asString().equals("row")) {
                    continue;
                }
                assertThat(panel.path("datasource").path("uid").asString())
                        .as("%s / %s", file, panel.path("title"))
                        .isEqualTo(uid);
                assertThat(panel.path("targets"))
                        .as("%s / %s has queries", file, panel.path("title"))
                        .isNotEmpty();
            }
        }
        assertThat(titles)
                .containsExactlyInAnyOrder(
                        "Pagora — Payments overview",
                        "Pagora — Clearing & ledger",
                        "Pagora — Pipeline health",
                        "Pagora — Receiving banks");
    }

    @Test
    void promtoolAcceptsBothConfigurationsAndEveryDashboardQuery() throws IOException {
        Optional<Path> promtool = onPath("promtool");
        Assumptions.assumeTrue(
                promtool.isPresent(),
                "promtool is not on the PATH (Debian: apt-get install prometheus;"
                        + " .ci/run installs it when apt-get works): Prometheus' own checks of " + LOCAL + ", "
                        + COMPOSE
                        + " and the dashboard queries are SKIPPED; the scrape targets are still checked by the other tests");
        // Syntax only: the configurations name the operator's certificate files, which `infra/local/pagora certs`
        // (or the compose volume) provides at run time and a fresh clone does not have.
        for (String config : List.of(LOCAL, COMPOSE, SCALE)) {
            run(
                    promtool.get(),
                    "check",
                    "config",
                    "--syntax-only",
                    Repository.path(config).toString());
        }
        // Every dashboard query as a recording rule: promtool parses it with Prometheus' PromQL parser.
        StringBuilder rules = new StringBuilder("groups:\n  - name: dashboards\n    rules:\n");
        int n = 0;
        for (Path file : DashboardMetricsTest.dashboardFiles()) {
            for (String expression : expressions(Http.JSON.readTree(Repository.read(file)), new ArrayList<>())) {
                String concrete = expression.replace("$__rate_interval", "1m").replace("$application", ".*");
                rules.append("      - record: dashboard_query_")
                        .append(n++)
                        .append('\n')
                        .append("        expr: '")
                        .append(concrete.replace("'", "''"))
                        .append("'\n");
            }
        }
        assertThat(n).as("dashboard queries").isGreaterThan(20);
        Path file = Files.createTempFile("pagora-dashboard-queries", ".yml");
        try {
            Files.writeString(file, rules);
            run(promtool.get(), "check", "rules", file.toString());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** job_name -> its one target, checking the interval and path on the way. */
    private static Map<String, String> scrapeTargets(String config) {
        Map<String, String> targets = new LinkedHashMap<>();
        scrapeTargetLists(config).forEach((job, jobTargets) -> {
            assertThat(jobTargets).as("%s %s", config, job).hasSize(1);
            targets.put(job, jobTargets.getFirst());
        });
        return targets;
    }

    /** job_name -> its targets, checking the interval and path on the way. */
    private static Map<String, List<String>> scrapeTargetLists(String config) {
        Map<String, Object> prometheus = YamlFiles.load(config);
        assertThat(map(prometheus.get("global"))).as("%s global", config).containsEntry("scrape_interval", "5s");
        Map<String, List<String>> targets = new LinkedHashMap<>();
        for (Object job : list(prometheus.get("scrape_configs"))) {
            Map<String, Object> scrape = map(job);
            assertThat(scrape.get("metrics_path"))
                    .as("%s %s", config, scrape.get("job_name"))
                    .isEqualTo("/actuator/prometheus");
            List<Object> statics = list(scrape.get("static_configs"));
            assertThat(statics).hasSize(1);
            targets.put(
                    (String) scrape.get("job_name"),
                    list(map(statics.getFirst()).get("targets")).stream()
                            .map(String.class::cast)
                            .toList());
        }
        return targets;
    }

    /** {@code config}'s scrape jobs with {@code targetsOf}'s targets: equal to {@code targetsOf}'s when only targets differ. */
    private static List<Object> withoutTargets(String config, String targetsOf) {
        Map<String, List<String>> targets = scrapeTargetLists(targetsOf);
        List<Object> jobs = new ArrayList<>();
        for (Object job : list(YamlFiles.load(config).get("scrape_configs"))) {
            Map<String, Object> scrape = new LinkedHashMap<>(map(job));
            scrape.put("static_configs", List.of(Map.of("targets", targets.get((String) scrape.get("job_name")))));
            jobs.add(scrape);
        }
        return jobs;
    }

    /** server.port in the service's own application.y(a)ml (unpacked by this module's build). */
    static int configuredPort(String service) {
        for (String name : List.of("application.yml", "application.yaml")) {
            try (InputStream in = PrometheusConfigTest.class
                    .getClassLoader()
                    .getResourceAsStream("pagora-services/" + service + "/" + name)) {
                if (in != null) {
                    Map<String, Object> configuration = new Yaml().load(in);
                    return (Integer) map(configuration.get("server")).get("port");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("no application.yml of " + service + " under pagora-services/");
    }

    private static List<String> expressions(JsonNode node, List<String> found) {
        if (node.isObject()) {
            if (node.path("expr").isString()) {
                found.add(node.path("expr").asString());
            }
            node.properties().forEach(field -> expressions(field.getValue(), found));
        } else if (node.isArray()) {
            node.forEach(element -> expressions(element, found));
        }
        return found;
    }

    private static void run(Path executable, String... arguments) {
        List<String> command = new ArrayList<>(List.of(executable.toString()));
        command.addAll(List.of(arguments));
        try {
            Process process =
                    new ProcessBuilder(command).redirectErrorStream(true).start();
            String output;
            try (InputStream in = process.getInputStream()) {
                output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            assertThat(process.waitFor(60, TimeUnit.SECONDS))
                    .as("%s finished", command)
                    .isTrue();
            System.out.printf("[e2e] %s:%n%s", String.join(" ", command), output);
            assertThat(process.exitValue()).as("%s said:%n%s", command, output).isZero();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Optional<Path> onPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
