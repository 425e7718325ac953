package io.pagora.e2e.support;

import io.pagora.testing.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Starts one Pagora service in this JVM as the real Spring Boot application it is, with its own
 * configuration file and the scenario's properties on top.
 *
 * <p>The three services share one class path here, and each ships an {@code application.yml} (or
 * {@code .yaml}) at its root: left alone, every service would read whichever file comes first. So each
 * is pointed at its own file explicitly ({@code spring.config.location}), found next to its classes.
 */
public final class ServiceApplication {

    private ServiceApplication() {}

    public static ConfigurableApplicationContext start(
            Class<?> application,
            String serviceName,
            Map<String, String> properties,
            List<ApplicationContextInitializer<ConfigurableApplicationContext>> initializers) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("spring.config.location", configLocation(application, serviceName));
        all.putAll(properties);
        String[] arguments = Settings.arguments(all);
        @SuppressWarnings("unchecked")
        ApplicationContextInitializer<ConfigurableApplicationContext>[] each =
                initializers.toArray(ApplicationContextInitializer[]::new);
        ConfigurableApplicationContext context =
                new SpringApplicationBuilder(application).initializers(each).run(arguments);
        String name = context.getEnvironment().getProperty("spring.application.name");
        if (!serviceName.equals(name)) {
            context.close();
            throw new IllegalStateException(serviceName
                    + " started with another service's configuration (spring.application.name=" + name + ")");
        }
        return context;
    }

    /** The HTTP port the service's web server listens on. */
    public static int port(ConfigurableApplicationContext context) {
        Integer port = context.getEnvironment().getProperty("local.server.port", Integer.class);
        if (port == null) {
            throw new IllegalStateException(context.getId() + " has no web server port");
        }
        return port;
    }

    /**
     * The service's own configuration file: unpacked by this module's build under
     * {@code pagora-services/<service>/}, or (if the service is ever a plain jar dependency) the
     * {@code application.y(a)ml} in the jar or directory that holds the application class.
     */
    static String configLocation(Class<?> application, String serviceName) {
        ClassLoader classLoader = application.getClassLoader();
        List<String> names = List.of("application.yml", "application.yaml");
        for (String name : names) {
            String unpacked = "pagora-services/" + serviceName + "/" + name;
            if (classLoader.getResource(unpacked) != null) {
                return "classpath:/" + unpacked;
            }
        }
        String home =
                application.getProtectionDomain().getCodeSource().getLocation().toString();
        try {
            for (String name : names) {
                for (URL url : Collections.list(classLoader.getResources(name))) {
                    String location = url.toString();
                    if (location.equals("jar:" + home + "!/" + name) || location.equals(home + name)) {
                        return location;
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new IllegalStateException("no application.yml of " + serviceName + " next to " + home);
    }
}
