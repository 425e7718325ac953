package io.pagora.e2e.support;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Just enough PromQL and Prometheus text exposition to check dashboards against what the services export:
 * the metric names a query selects, and the series names and metric types a scrape holds.
 */
public final class PromQl {

    private PromQl() {}

    /** Words that are PromQL syntax, never metric names (aggregation modifiers, set operators, literals). */
    private static final Set<String> KEYWORDS = Set.of(
            "by",
            "without",
            "on",
            "ignoring",
            "group_left",
            "group_right",
            "bool",
            "and",
            "or",
            "unless",
            "offset",
            "inf",
            "nan",
            "atan2");

    private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");
    private static final Pattern LABEL_LIST =
            Pattern.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    private static final Pattern GRAFANA_VARIABLE = Pattern.compile("\\$\\{[^}]*}|\\$\\w+");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

    /**
     * The metric names an expression selects, e.g. {@code histogram_quantile(0.99, sum by (le)
     * (rate(x_seconds_bucket{app="a"}[$__rate_interval])))} selects {@code x_seconds_bucket}. Functions
     * (an identifier followed by a parenthesis), keywords, label names and values, ranges, numbers and
     * Grafana variables are not metric names.
     */
    public static Set<String> metricNames(String expression) {
        String text = STRING.matcher(expression).replaceAll(" ");
        text = MATCHERS.matcher(text).replaceAll(" ");
        text = RANGE.matcher(text).replaceAll(" ");
        text = LABEL_LIST.matcher(text).replaceAll(" ");
        text = GRAFANA_VARIABLE.matcher(text).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher identifier = IDENTIFIER.matcher(text);
        while (identifier.find()) {
            int start = identifier.start();
            if (start > 0 && (Character.isDigit(text.charAt(start - 1)) || text.charAt(start - 1) == '.')) {
                continue; // the unit or exponent of a number: 5m, 1e-9
            }
            String word = identifier.group();
            int next = identifier.end();
            while (next < text.length() && Character.isWhitespace(text.charAt(next))) {
                next++;
            }
            boolean isCall = next < text.length() && text.charAt(next) == '(';
            if (!isCall && !KEYWORDS.contains(word.toLowerCase(java.util.Locale.ROOT))) {
                names.add(word);
            }
        }
        return names;
    }

    /** The metric a Grafana {@code label_values(metric, label)} variable query reads, if it names one. */
    public static Set<String> variableQueryMetricNames(String query) {
        Matcher labelValues = Pattern.compile("label_values\\s*\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*(\\{[^}]*})?\\s*,")
                .matcher(query);
        if (labelValues.find()) {
            return Set.of(labelValues.group(1));
        }
        if (query.startsWith("query_result(")) {
            return metricNames(query.substring("query_result(".length(), query.length() - 1));
        }
        return Set.of();
    }

    /** A scrape in Prometheus text format: every series name, and the type of every metric family. */
    public record Exposition(Set<String> seriesNames, Map<String, String> familyTypes) {

        public static Exposition parse(String text) {
            Set<String> series = new LinkedHashSet<>();
            Map<String, String> types = new LinkedHashMap<>();
            for (String line : text.split("\n")) {
                if (line.startsWith("# TYPE ")) {
                    String[] parts = line.split(" ");
                    types.put(parts[2], parts[3]);
                } else if (!line.isBlank() && !line.startsWith("#")) {
                    int end = 0;
                    while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                        end++;
                    }
                    series.add(line.substring(0, end));
                }
            }
            return new Exposition(series, types);
        }

        public Exposition plus(Exposition other) {
            Set<String> series = new LinkedHashSet<>(seriesNames);
            series.addAll(other.seriesNames);
            Map<String, String> types = new LinkedHashMap<>(familyTypes);
            types.putAll(other.familyTypes);
            return new Exposition(series, types);
        }

        /**
         * Whether a dashboard may select {@code name}: it is a series of the scrape, and a {@code _bucket}
         * is a histogram's (histogram_quantile needs {@code le} buckets: a summary's {@code _count}/
         * {@code _sum} would exist, but not them), and {@code _count}/{@code _sum} belong to a histogram or
         * summary family (not to a counter or gauge that happens to end so).
         */
        public boolean provides(String name) {
            if (!seriesNames.contains(name)) {
                return false;
            }
            if (name.endsWith("_bucket")) {
                return "histogram".equals(familyTypes.get(stripSuffix(name, "_bucket")));
            }
            for (String suffix : new String[] {"_count", "_sum"}) {
                String family = stripSuffix(name, suffix);
                if (name.endsWith(suffix) && !familyTypes.containsKey(name)) {
                    String type = familyTypes.get(family);
                    return "histogram".equals(type) || "summary".equals(type);
                }
            }
            return true;
        }

        private static String stripSuffix(String name, String suffix) {
            return name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : name;
        }
    }
}
