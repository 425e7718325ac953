package io.pagora.testing;

import java.util.List;
import java.util.Map;

/**
 * Spring settings for a service a test starts by hand ({@code SpringApplicationBuilder}): written
 * {@code key=value}, kept in a map in order, and handed to the service as command-line arguments, which outrank
 * every other property source (the service's own configuration file included).
 */
public final class Settings {

    private Settings() {}

    /** Puts every {@code key=value} of {@code settings} into {@code properties}, in order: a later one wins. */
    public static Map<String, String> putAll(Map<String, String> properties, List<String> settings) {
        for (String setting : settings) {
            int equals = setting.indexOf('=');
            if (equals < 1) {
                throw new IllegalArgumentException("a setting is key=value, not " + setting);
            }
            properties.put(setting.substring(0, equals), setting.substring(equals + 1));
        }
        return properties;
    }

    /** The properties as command-line arguments, {@code --key=value}, in the map's order. */
    public static String[] arguments(Map<String, String> properties) {
        return properties.entrySet().stream()
                .map(entry -> "--" + entry.getKey() + "=" + entry.getValue())
                .toArray(String[]::new);
    }
}
