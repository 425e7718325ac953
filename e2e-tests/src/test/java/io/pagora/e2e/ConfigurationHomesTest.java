package io.pagora.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.e2e.support.Repository;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.convert.DurationStyle;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Every {@code pagora.*} setting has one home. Its default lives in the {@code @ConfigurationProperties} record
 * that binds it, or, for a key only an annotation reads, in one placeholder of one module; a service's
 * application.yml names a key only to change it. The records are read through the configuration metadata that
 * spring-boot-configuration-processor generates at compile time (the services' unpacked beside their
 * application.yml, service-support's from its jar).
 */
class ConfigurationHomesTest {

    static final List<String> SERVICES = List.of("payment-api", "clearing-service", "reporting-service");
    static final String METADATA = "spring-configuration-metadata.json";
    /** {@code ${pagora.key:default}}: a placeholder that carries its own default. */
    static final Pattern PLACEHOLDER_WITH_DEFAULT = Pattern.compile("\\$\\{(pagora\\.[a-z0-9.-]+):([^}]*)}");

    record Property(String name, String sourceType, JsonNode defaultValue) {}

    @Test
    void everyServiceDescribesItsPagoraSettingsInMetadata() {
        for (String service : SERVICES) {
            List<Property> properties = metadata(serviceFile(service, METADATA));
            assertThat(properties)
                    .as("%s: pagora.* properties with a default in its metadata", service)
                    .filteredOn(p -> p.name().startsWith("pagora.") && p.defaultValue() != null)
                    .isNotEmpty();
        }
    }

    @Test
    void noApplicationYmlRepeatsADefaultOfARecord() {
        Map<String, Property> known = knownProperties();
        List<String> repeated = new ArrayList<>();
        for (String service : SERVICES) {
            pagoraSettings(service).forEach((key, value) -> {
                Property property = known.get(canonical(key));
                if (property != null && property.defaultValue() != null && sameValue(value, property.defaultValue())) {
                    repeated.add(service + ": " + key + " = " + value + " is the default of " + property.sourceType());
                }
            });
        }
        assertThat(repeated)
                .as("application.yml settings that only restate a record's default")
                .isEmpty();
    }

    @Test
    void everyPagoraKeyInAnApplicationYmlIsBoundSomewhere() {
        Set<String> bound = new TreeSet<>(knownProperties().keySet());
        placeholderKeys().forEach(key -> bound.add(canonical(key)));
        List<String> unbound = new ArrayList<>();
        for (String service : SERVICES) {
            pagoraSettings(service).keySet().stream()
                    .filter(key -> bound.stream()
                            .noneMatch(b ->
                                    b.equals(canonical(key)) || canonical(key).startsWith(b + ".")))
                    .forEach(key -> unbound.add(service + ": " + key));
        }
        assertThat(unbound)
                .as("pagora.* keys in an application.yml that no record or placeholder reads")
                .isEmpty();
    }

    @Test
    void aPlaceholderDefaultLivesInOneModuleAndNotAlsoInARecord() {
        Map<String, Set<String>> modulesByKey = new TreeMap<>();
        literalPlaceholders()
                .forEach((file, keys) -> keys.forEach(key -> modulesByKey
                        .computeIfAbsent(key, k -> new TreeSet<>())
                        .add(Repository.root().relativize(file).getName(0).toString())));
        Map<String, Property> known = knownProperties();
        List<String> twice = new ArrayList<>();
        modulesByKey.forEach((key, modules) -> {
            if (modules.size() > 1) {
                twice.add(key + ": a default in " + modules);
            }
            Property property = known.get(canonical(key));
            if (property != null && property.defaultValue() != null) {
                twice.add(key + ": a default in " + modules + " and in " + property.sourceType());
            }
        });
        assertThat(twice)
                .as("pagora.* keys whose default is written in two places")
                .isEmpty();
    }

    /** Every property of the services' and service-support's metadata, by canonical name. */
    static Map<String, Property> knownProperties() {
        Map<String, Property> known = new HashMap<>();
        List<Property> all = new ArrayList<>();
        SERVICES.forEach(service -> all.addAll(metadata(serviceFile(service, METADATA))));
        try {
            for (URL url : Collections.list(
                    ConfigurationHomesTest.class.getClassLoader().getResources("META-INF/" + METADATA))) {
                try (InputStream in = url.openStream()) {
                    all.addAll(metadata(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        all.forEach(p -> known.merge(canonical(p.name()), p, (a, b) -> a.defaultValue() != null ? a : b));
        assertThat(known)
                .as("service-support's pagora.ledger.backend among the known properties")
                .containsKey(canonical("pagora.ledger.backend"));
        return known;
    }

    static List<Property> metadata(Path file) {
        return metadata(Repository.read(file));
    }

    static List<Property> metadata(String json) {
        JsonNode root = JsonMapper.builder().build().readTree(json);
        List<Property> properties = new ArrayList<>();
        for (JsonNode node : root.path("properties")) {
            JsonNode value = node.get("defaultValue");
            properties.add(new Property(
                    node.get("name").asString(),
                    node.path("sourceType").asString(""),
                    value == null || value.isNull() ? null : value));
        }
        return properties;
    }

    /** A service's pagora.* settings in its packaged application.yml, flattened to dotted keys. */
    static Map<String, Object> pagoraSettings(String service) {
        Map<String, Object> flat = new LinkedHashMap<>();
        flatten("", new Yaml().load(Repository.read(applicationYaml(service))), flat);
        flat.keySet().removeIf(key -> !key.startsWith("pagora."));
        assertThat(flat).as("%s: its application.yml read", service).isNotNull();
        return flat;
    }

    @SuppressWarnings("unchecked")
    static void flatten(String prefix, Object node, Map<String, Object> flat) {
        if (node instanceof Map<?, ?> map) {
            ((Map<Object, Object>) map)
                    .forEach((k, v) -> flatten(prefix.isEmpty() ? String.valueOf(k) : prefix + "." + k, v, flat));
        } else {
            flat.put(prefix, node);
        }
    }

    static Path applicationYaml(String service) {
        URL yml = ConfigurationHomesTest.class
                .getClassLoader()
                .getResource("pagora-services/" + service + "/application.yml");
        return serviceFile(service, yml != null ? "application.yml" : "application.yaml");
    }

    /** The packaged copy of a service's resource (e2e-tests' pom unpacks each service's beside its name). */
    static Path serviceFile(String service, String name) {
        try {
            URL url = ConfigurationHomesTest.class
                    .getClassLoader()
                    .getResource("pagora-services/" + service + "/" + name);
            assertThat(url)
                    .as("%s's %s unpacked by e2e-tests' pom", service, name)
                    .isNotNull();
            return Path.of(url.toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Main sources and resources of every module holding a {@code ${pagora.…:default}}, with its keys. */
    static Map<Path, List<String>> placeholders() {
        return placeholders(false);
    }

    static Map<Path, List<String>> placeholders(boolean literalDefaultsOnly) {
        Map<Path, List<String>> found = new TreeMap<>();
        try (Stream<Path> files = Files.walk(Repository.root(), 24)) {
            files.filter(f -> f.toString().contains("/src/main/")
                            && !f.toString().contains("/target/")
                            && Files.isRegularFile(f))
                    .filter(f -> f.toString().matches(".*\\.(java|ya?ml|properties)$"))
                    .forEach(f -> {
                        Matcher m = PLACEHOLDER_WITH_DEFAULT.matcher(Repository.read(f));
                        while (m.find()) {
                            if (literalDefaultsOnly && m.group(2).startsWith("\" +")) {
                                continue;
                            }
                            found.computeIfAbsent(f, k -> new ArrayList<>()).add(m.group(1));
                        }
                    });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return found;
    }

    /**
     * The placeholders whose default is written out in place; one whose default is a Java constant
     * ({@code "${key:" + Names.CONSTANT + "}"}) takes it from that constant's one home.
     */
    static Map<Path, List<String>> literalPlaceholders() {
        Map<Path, List<String>> found = new TreeMap<>();
        placeholders(true).forEach(found::put);
        return found;
    }

    static Set<String> placeholderKeys() {
        Set<String> keys = new TreeSet<>();
        placeholders().values().forEach(keys::addAll);
        return keys;
    }

    /** Spring's relaxed binding: case, dashes and underscores do not tell two keys apart. */
    static String canonical(String key) {
        return key.toLowerCase(Locale.ROOT).replace("-", "").replace("_", "");
    }

    static boolean sameValue(Object configured, JsonNode defaultValue) {
        String left = String.valueOf(configured);
        String right = defaultValue.isValueNode() ? defaultValue.asString() : defaultValue.toString();
        if (left.equals(right)) {
            return true;
        }
        try {
            Duration a = DurationStyle.detectAndParse(left);
            Duration b = DurationStyle.detectAndParse(right);
            return a.equals(b);
        } catch (RuntimeException notDurations) {
            return false;
        }
    }
}
