package io.pagora.e2e.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.Yaml;

/** The repository's YAML files (compose, Prometheus, Grafana provisioning) as trees, each step's type asserted. */
public final class YamlFiles {

    private YamlFiles() {}

    /** The file at {@code relative} from the repository root, as a mapping. */
    public static Map<String, Object> load(String relative) {
        return map(new Yaml().load(Repository.read(Repository.path(relative))));
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> map(Object value) {
        assertThat(value).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    public static List<Object> list(Object value) {
        assertThat(value).isInstanceOf(List.class);
        return (List<Object>) value;
    }

    /** A sequence of scalars, each as its text. */
    public static List<String> strings(Object value) {
        return list(value).stream().map(String::valueOf).toList();
    }
}
