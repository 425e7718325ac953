package io.pagora.local.bench;

import io.pagora.local.checks.InvariantChecks;
import io.pagora.local.demo.DemoReport;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * report.html: one bench run (or TigerBeetle beside PostgreSQL) as a page that opens offline — the figures as a
 * table written here, the run's second-by-second series as charts drawn by uPlot, which is inlined from its WebJar
 * (pinned in local-runtime's pom), as is the run's result.json. Nothing is fetched when the page opens.
 */
public final class BenchHtml {

    static final String UPLOT_VERSION = "1.6.30";
    private static final String UPLOT = "/META-INF/resources/webjars/uplot/" + UPLOT_VERSION + "/dist/";
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private BenchHtml() {}

    /** {@code bench-compare --tigerbeetle=<result.json> --postgresql=<result.json> --out=<page.html>}: the launcher's --ledger=both. */
    public static void main(String[] args) {
        BenchHtmlOptions options = BenchHtmlOptions.parse(args);
        writeComparison(
                options.out(),
                JSON.readTree(options.tigerBeetle().toFile()),
                JSON.readTree(options.postgresql().toFile()));
    }

    /** Writes one run's page from its result.json (as {@link BenchReport#json} makes it). */
    static void write(Path html, JsonNode result) {
        String title = "Pagora bench: " + result.path("ledger").asString("") + ", "
                + result.path("mode").asString("") + " at " + number(result.path("offered_per_s")) + "/s";
        StringBuilder body = new StringBuilder();
        body.append("<h1>").append(escape(title)).append("</h1>\n");
        body.append(verdict(result));
        body.append("<h2>Figures (the measured window)</h2>\n").append(figures(List.of(result)));
        body.append(findMaxSteps(result));
        body.append("<h2>Second by second (warm-up shaded)</h2>\n");
        body.append("<div id=\"charts-0\"></div>\n");
        write(html, title, body.toString(), List.of(result));
    }

    /** TigerBeetle's run beside PostgreSQL's: both tables in one, both runs' series. */
    static void writeComparison(Path html, JsonNode tigerBeetle, JsonNode postgresql) {
        String title = "Pagora bench: TigerBeetle vs PostgreSQL ledger";
        StringBuilder body = new StringBuilder("<h1>").append(title).append("</h1>\n");
        body.append("<h2>Figures (each run's measured window)</h2>\n")
                .append(figures(List.of(tigerBeetle, postgresql)));
        body.append("<h2>TigerBeetle, second by second</h2>\n<div id=\"charts-0\"></div>\n");
        body.append("<h2>PostgreSQL, second by second</h2>\n<div id=\"charts-1\"></div>\n");
        write(html, title, body.toString(), List.of(tigerBeetle, postgresql));
    }

    /**
     * The demo's page: its checks and its report as printed. The demo keeps no second-by-second series (k6 sends its
     * load and says only its totals), so the page has no charts; it opens offline like the bench's.
     */
    public static void writeDemo(Path html, DemoReport.Result result, List<String> lines) {
        String title = "Pagora demo";
        StringBuilder body = new StringBuilder("<h1>")
                .append(title)
                .append("</h1>\n<p class=\"")
                .append(result.passed() ? "valid\">PASS" : "invalid\">FAIL")
                .append("</p>\n");
        body.append(
                "<h2>Checks</h2>\n<table class=\"text\"><tr><th>check</th><th>verdict</th><th>what it found</th></tr>\n");
        for (InvariantChecks.Verdict verdict : result.verdicts()) {
            body.append("<tr><td>")
                    .append(escape(verdict.name()))
                    .append("</td><td class=\"")
                    .append(verdict.passed() ? "valid\">PASS" : "invalid\">FAIL")
                    .append("</td><td>")
                    .append(escape(verdict.summary()))
                    .append("</td></tr>\n");
        }
        body.append("</table>\n<h2>The report</h2>\n<pre>")
                .append(escape(String.join("\n", lines)))
                .append("</pre>\n");
        write(html, title, body.toString(), List.of());
    }

    private static void write(Path html, String title, String body, List<JsonNode> results) {
        String page = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" + escape(title)
                + "</title>\n<style>" + resource("uPlot.min.css") + "\n" + STYLE + "</style>\n</head><body>\n" + body
                + "<script id=\"results\" type=\"application/json\">" + scriptSafe(JSON.writeValueAsString(results))
                + "</script>\n<script>" + resource("uPlot.iife.min.js") + "</script>\n<script>" + CHARTS
                + "</script>\n</body></html>\n";
        try {
            Files.writeString(html, page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write " + html, e);
        }
    }

    private static String verdict(JsonNode result) {
        boolean valid = result.path("valid").asBoolean(false);
        StringBuilder html = new StringBuilder("<p class=\"")
                .append(valid ? "valid" : "invalid")
                .append("\">")
                .append(valid ? "VALID" : "INVALID");
        for (JsonNode failure : result.path("gate_failures")) {
            html.append(" — ").append(escape(failure.asString("")));
        }
        return html.append("; invariants ")
                .append(result.path("invariants_pass").asBoolean(false) ? "PASS" : "FAIL")
                .append("</p>\n")
                .toString();
    }

    /** The window's figures, one column per run. */
    private static String figures(List<JsonNode> results) {
        StringBuilder table = new StringBuilder("<table><tr><th></th>");
        results.forEach(r -> table.append("<th>")
                .append(escape(r.path("ledger").asString("")))
                .append("</th>"));
        table.append("</tr>\n");
        for (String[] row : ROWS) {
            table.append("<tr><td>").append(row[0]).append("</td>");
            results.forEach(r -> table.append("<td>")
                    .append(row[1].equals(RATIO) ? ratio(r.path(row[1])) : number(r.path(row[1])))
                    .append("</td>"));
            table.append("</tr>\n");
        }
        row(table, results, "cpu_us_per_payment_by_component", "CPU µs per settled payment: ");
        row(table, results, "cpu_share_by_component", "share of the platform's CPU, %: ");
        table.append("<tr><td>bank simulator CPU µs per payment (apart)</td>");
        results.forEach(r -> table.append("<td>")
                .append(number(r.path("bank_simulator_cpu_us_per_payment")))
                .append("</td>"));
        table.append("</tr>\n");
        row(table, results, "disk_bytes_per_payment", "disk bytes per payment: ");
        row(table, results, "postgresql_checkpoint", "PostgreSQL checkpoint forced in the window: ");
        row(table, results, "query_payment", "GET /payments/{id} during the window: ");
        row(table, results, "query_statement", "GET /accounts/{id}/statement during the window: ");
        table.append("<tr><td>valid</td>");
        results.forEach(r -> table.append("<td>")
                .append(r.path("valid").asBoolean(false) ? "VALID" : "INVALID")
                .append("</td>"));
        return table.append("</tr>\n</table>\n").toString();
    }

    /** One row per key of the runs' {@code field} objects (the union, in first-seen order). */
    private static void row(StringBuilder table, List<JsonNode> results, String field, String label) {
        java.util.LinkedHashSet<String> keys = new java.util.LinkedHashSet<>();
        results.forEach(r -> r.path(field).propertyNames().forEach(keys::add));
        for (String key : keys) {
            table.append("<tr><td>").append(escape(label + key)).append("</td>");
            results.forEach(r ->
                    table.append("<td>").append(number(r.path(field).path(key))).append("</td>"));
            table.append("</tr>\n");
        }
    }

    /** The figure the project steers by (docs/performance.md); null on the PostgreSQL ledger. */
    private static final String RATIO = "platform_to_ledger_cpu_ratio";

    private static final String[][] ROWS = {
        {"offered /s", "offered_per_s"},
        {"accepted /s", "accepted_per_s"},
        {"settled /s", "settled_per_s"},
        {"accept p50 ms", "accept_p50_ms"},
        {"accept p99 ms", "accept_p99_ms"},
        {"accept→settled p50 ms", "accept_to_settled_p50_ms"},
        {"accept→settled p99 ms", "accept_to_settled_p99_ms"},
        {"read-model lag p99 ms", "read_model_lag_p99_ms"},
        {"backlog at the window's end", "backlog_at_window_end"},
        {"platform CPU µs per settled payment", "cpu_us_per_payment"},
        {"TigerBeetle CPU µs per settled payment", "ledger_cpu_us_per_payment"},
        {"platform ÷ TigerBeetle (CPU per settled payment)", RATIO},
        {"load generator share of a core", "load_generator_cpu_share"},
        {"window s", "window_s"}
    };

    /** A ratio as the table prints it ({@code 10.45×}), or a dash where there is none. */
    private static String ratio(JsonNode node) {
        return node.isNumber() ? String.format(Locale.ROOT, "%.2f×", node.asDouble()) : "–";
    }

    /** With find-max, every step it tried: the rate that held is the page's, the next one's failure why it stopped. */
    private static String findMaxSteps(JsonNode result) {
        JsonNode steps = result.path("find_max_steps");
        if (!steps.isArray() || steps.isEmpty()) {
            return "";
        }
        StringBuilder table = new StringBuilder("<h2>Find-max: every step</h2>\n<table><tr><th>offered /s</th>"
                + "<th>settled /s</th><th>accept p99 ms</th><th>platform CPU µs per settled payment</th>"
                + "<th>platform ÷ TigerBeetle</th><th>verdict</th></tr>\n");
        for (JsonNode step : steps) {
            table.append("<tr><td>")
                    .append(number(step.path("offered_per_s")))
                    .append("</td><td>")
                    .append(number(step.path("settled_per_s")))
                    .append("</td><td>")
                    .append(number(step.path("accept_p99_ms")))
                    .append("</td><td>")
                    .append(number(step.path("cpu_us_per_payment")))
                    .append("</td><td>")
                    .append(ratio(step.path(RATIO)))
                    .append("</td><td>");
            if (step.path("valid").asBoolean(false)) {
                table.append("held");
            } else {
                table.append("broke");
                for (JsonNode failure : step.path("gate_failures")) {
                    table.append(" — ").append(escape(failure.asString("")));
                }
            }
            table.append("</td></tr>\n");
        }
        return table.append("</table>\n").toString();
    }

    private static String number(JsonNode node) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return "–";
        }
        if (node.isNumber()) {
            double value = node.asDouble();
            if (value == Math.rint(value) && Math.abs(value) < 1e15) {
                return String.format(Locale.ROOT, "%,d", (long) value);
            }
            return String.format(Locale.ROOT, Math.abs(value) < 1 ? "%.3f" : "%,.1f", value);
        }
        return escape(node.asString(""));
    }

    private static String resource(String name) {
        try (InputStream in = BenchHtml.class.getResourceAsStream(UPLOT + name)) {
            if (in == null) {
                throw new IllegalStateException("uPlot " + UPLOT_VERSION + " is not on the classpath: " + UPLOT + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String escape(String text) {
        return text.replace("&", "&amp;")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\"", "&quot;");
    }

    /** JSON inside a script element: "</" would end it early. */
    private static String scriptSafe(String json) {
        return json.replace("</", "<\\/");
    }

    private static final String STYLE = """
            body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
            table { border-collapse: collapse; margin-bottom: 1em; }
            td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
            td:first-child { text-align: left; }
            pre { background: #f6f6f6; padding: 1em; overflow-x: auto; }
            table.text td, table.text th { text-align: left; vertical-align: top; }
            .valid { color: #161; font-weight: bold; } .invalid { color: #a11; font-weight: bold; }
            .chart { display: inline-block; margin: 0 1em 1em 0; }
            """;

    /** Four charts per run from its timeline: rates, backlog, latency percentiles, CPU cores per component. */
    private static final String CHARTS = """
            const results = JSON.parse(document.getElementById('results').textContent);
            const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f',
                             '#bcbd22', '#17becf'];
            function warmupShade(from) {
              return { hooks: { drawClear: [u => {
                if (from <= 0) return;
                const x0 = u.valToPos(0, 'x', true), x1 = u.valToPos(from, 'x', true);
                u.ctx.save(); u.ctx.fillStyle = 'rgba(0,0,0,0.06)';
                u.ctx.fillRect(x0, u.bbox.top, x1 - x0, u.bbox.height); u.ctx.restore();
              }]}};
            }
            function chart(target, title, t, named, from, unit) {
              const div = document.createElement('div'); div.className = 'chart'; target.appendChild(div);
              const series = [{ label: 's' }];
              const data = [t];
              Object.entries(named).forEach(([name, values], i) => {
                series.push({ label: name, stroke: palette[i % palette.length], width: 1.5,
                              value: (u, v) => v == null || v < 0 ? '–' : v.toLocaleString() + (unit || '') });
                data.push(values.map(v => v < 0 ? null : v));
              });
              new uPlot({ title, width: 560, height: 260, series, plugins: [warmupShade(from)],
                          scales: { x: { time: false } },
                          axes: [{ label: 'seconds since the load began' }, { size: 70 }] }, data, div);
            }
            results.forEach((result, i) => {
              const tl = result.timeline, target = document.getElementById('charts-' + i);
              if (!tl || !target) return;
              const offered = tl.t_s.map(() => tl.offered_per_s);
              chart(target, 'Payments per second', tl.t_s,
                    { offered: offered, accepted: tl.accepted_per_s, 'final (read model)': tl.final_per_s }, tl.window_from_s);
              chart(target, 'Backlog (accepted, not yet final)', tl.t_s, { backlog: tl.backlog }, tl.window_from_s);
              chart(target, 'Accept latency by scheduled second (ms)', tl.t_s,
                    { p50: tl.accept_p50_ms, p99: tl.accept_p99_ms }, tl.window_from_s, ' ms');
              chart(target, 'CPU by component (cores)', tl.t_s, tl.cpu_cores, tl.window_from_s);
            });
            """;
}
