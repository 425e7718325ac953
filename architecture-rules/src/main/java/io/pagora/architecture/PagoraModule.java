package io.pagora.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

/**
 * The module map: each Maven module with main code, the package its classes live in, and the modules
 * its main code may use. Declared in dependency order, so a module can only name modules above it: the
 * map cannot describe a cycle.
 *
 * <p>Modules are told apart by package (package by module, then domain / application / adapter), so a
 * rule over packages is a rule over modules. A module that gains a package must add it here, or its
 * own ArchitectureTest fails ({@link ModuleRules#staysInItsPackage}).
 */
public enum PagoraModule {
    /** This map and its rules: plain Java over ArchUnit, used by every module's tests and no main code. */
    ARCHITECTURE_RULES("io.pagora.architecture", Framework.NONE),
    KERNEL("io.pagora.kernel", Framework.NONE),
    LEDGER_PORT("io.pagora.ledger.port", Framework.NONE, KERNEL),
    SETTLEMENT("io.pagora.settlement", Framework.NONE, KERNEL, LEDGER_PORT),
    EVENTS("io.pagora.events", Framework.NONE, KERNEL),
    /**
     * The participant banks, as their own process: they speak to the switch over docs/participants.md only,
     * with their own model of its JSON, so they use the kernel (its PEM loader) and no service or contract.
     */
    BANK_SIMULATOR("io.pagora.simulator", Framework.NONE, KERNEL),
    /** A plain library: local-runtime and the benchmarks use the ledgers without Spring. */
    LEDGER_ADAPTER("io.pagora.ledger.adapter", Framework.NONE, KERNEL, LEDGER_PORT),
    /** Shared Spring configuration of the services: it may wire the ledger, the settlement and the events. */
    SERVICE_SUPPORT("io.pagora.service", Framework.SPRING, KERNEL, LEDGER_PORT, SETTLEMENT, EVENTS, LEDGER_ADAPTER),
    /**
     * Used by other modules' tests only, so no service's main code may use it. Spring is allowed: the
     * shared test bases and the embedded Kafka start Spring pieces. (Maven keeps it off settlement and
     * the adapters: their tests use it, so it cannot use them.)
     */
    TEST_SUPPORT("io.pagora.testing", Framework.SPRING, KERNEL, LEDGER_PORT, EVENTS),
    /** Reaches the ledger through the port; the adapter comes with service-support's ledger bean. */
    PAYMENT_API("io.pagora.payments", Framework.SPRING, KERNEL, LEDGER_PORT, SETTLEMENT, EVENTS, SERVICE_SUPPORT),
    CLEARING_SERVICE(
            "io.pagora.clearing",
            Framework.SPRING,
            KERNEL,
            LEDGER_PORT,
            SETTLEMENT,
            EVENTS,
            LEDGER_ADAPTER,
            SERVICE_SUPPORT),
    /** Reads the ledger only through the port: never an adapter. */
    REPORTING_SERVICE(
            "io.pagora.reporting", Framework.SPRING, KERNEL, LEDGER_PORT, SETTLEMENT, EVENTS, SERVICE_SUPPORT),
    /**
     * The launcher's Java side (demo report, bench, verify, chaos): may use every module (the money
     * invariant checker it shares with the tests, too); no module may use it. Plain Java, no Spring.
     */
    LOCAL_RUNTIME(
            "io.pagora.local",
            Framework.NONE,
            KERNEL,
            LEDGER_PORT,
            SETTLEMENT,
            EVENTS,
            LEDGER_ADAPTER,
            SERVICE_SUPPORT,
            TEST_SUPPORT,
            PAYMENT_API,
            CLEARING_SERVICE,
            REPORTING_SERVICE);

    /** Whether a module's main code may use Spring. */
    public enum Framework {
        NONE,
        SPRING
    }

    private final String rootPackage;
    private final Framework framework;
    private final Set<PagoraModule> allowed;
    // Imported once per test JVM: every rule of a module reads the same classes.
    private JavaClasses mainClasses;

    PagoraModule(String rootPackage, Framework framework, PagoraModule... allowed) {
        this.rootPackage = rootPackage;
        this.framework = framework;
        this.allowed = allowed.length == 0 ? Collections.emptySet() : Set.of(allowed);
    }

    /** The package every class of this module's main code lives in (or below). */
    public String rootPackage() {
        return rootPackage;
    }

    /** {@code rootPackage..}, ArchUnit's pattern for the package and everything below it. */
    public String packagePattern() {
        return rootPackage + "..";
    }

    public Framework framework() {
        return framework;
    }

    /** Whether this module's main code may use {@code other}'s (a module may always use itself). */
    public boolean mayUse(PagoraModule other) {
        return other == this || allowed.contains(other);
    }

    /**
     * Every main class of this module: the whole class-path root (directory or jar) that holds its
     * root package, without the test classes. The whole root, not just the package, so that a class
     * outside the module's package is seen and reported.
     */
    public synchronized JavaClasses mainClasses() {
        if (mainClasses == null) {
            mainClasses = new ClassFileImporter()
                    .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                    .importLocations(Set.of(Location.of(mainRoot())));
        }
        return mainClasses;
    }

    private URI mainRoot() {
        String path = rootPackage.replace('.', '/') + "/";
        List<URI> roots = new ArrayList<>();
        for (URL url : resources(path)) {
            Location location = Location.of(url);
            if (ImportOption.Predefined.DO_NOT_INCLUDE_TESTS.includes(location)) {
                String text = url.toString();
                roots.add(URI.create(text.substring(0, text.length() - path.length())));
            }
        }
        if (roots.size() != 1) {
            throw new AssertionError(this + ": expected the main classes of package " + rootPackage
                    + " in exactly one class-path root, found " + roots
                    + (roots.isEmpty()
                            ? " (is this module on the test class path, and compiled?)"
                            : " (two modules share a package: give each its own)"));
        }
        return roots.getFirst();
    }

    private static List<URL> resources(String path) {
        try {
            return Collections.list(
                    Thread.currentThread().getContextClassLoader().getResources(path));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the class path for " + path, e);
        }
    }
}
