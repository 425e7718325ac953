package io.pagora.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.alwaysTrue;
import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;

/**
 * The layering inside a module, the same for every module: a domain in plain Java; an application
 * that speaks only to the domain and to ports; adapters that depend inward and not on each other. A
 * rule over a layer a module does not have passes (kernel has no adapters).
 */
public final class LayeredRules {

    private static final String DOMAIN = "io.pagora..domain..";
    // The ledger port (module ledger-port) is a domain too: plain Java, the one way to the ledger.
    private static final String LEDGER_PORT = "io.pagora.ledger.port..";
    private static final String APPLICATION = "io.pagora..application..";
    private static final String KERNEL = "io.pagora.kernel..";
    // Event contracts are plain records (Jackson-annotated, in their own module): a domain may name them.
    private static final String EVENTS = "io.pagora.events..";

    private LayeredRules() {}

    /**
     * Domains and the kernel are plain Java: no Spring, TigerBeetle, JDBC, Kafka, Micrometer, Jackson,
     * logging, and no application, adapter or configuration class; only the JDK (without java.sql) and
     * other domains, the kernel and the event contracts.
     */
    public static ArchRule domainIsPlainJava(List<KnownViolation> known) {
        DescribedPredicate<JavaClass> allowed = jdk().or(resideInAnyPackage(DOMAIN, LEDGER_PORT, KERNEL, EVENTS))
                .as("the JDK (without java.sql), domains, the kernel and the event contracts");
        return classes()
                .that()
                .resideInAnyPackage(DOMAIN, LEDGER_PORT, KERNEL)
                .should(Dependencies.onlyOn(allowed, known))
                .because("the domain is plain Java: frameworks and backends are adapters behind ports")
                .allowEmptyShould(true);
    }

    /**
     * An application layer speaks only to domains (the ledger port is one), other applications (a
     * service runs settlement's use cases), the kernel, the event contracts and a logger: never to an
     * adapter, a configuration, Spring, Kafka, JDBC, TigerBeetle or Micrometer.
     */
    public static ArchRule applicationUsesOnlyDomainAndPorts(List<KnownViolation> known) {
        DescribedPredicate<JavaClass> allowed = jdk().or(
                        resideInAnyPackage(DOMAIN, LEDGER_PORT, APPLICATION, KERNEL, EVENTS, "org.slf4j.."))
                .as(
                        "the JDK (without java.sql), domains and ports, applications, the kernel, the event contracts and SLF4J");
        return classes()
                .that()
                .resideInAPackage(APPLICATION)
                .should(Dependencies.onlyOn(allowed, known))
                .because("use cases run unchanged whatever adapter (ledger backend, broker, bank) is plugged in")
                .allowEmptyShould(true);
    }

    /**
     * One adapter of a module (postgres, tigerbeetle, kafka, web, jdbc, bank, metrics, ...) does not use
     * another of the same module: they meet only in the application's ports and in the configuration that
     * wires them. What a module may use of another module's adapters is the module map's business.
     */
    public static ArchRule adaptersDoNotDependOnEachOther(PagoraModule module) {
        return slices().matching("io.pagora.(**).adapter.(*)..")
                .should()
                .notDependOnEachOther()
                .ignoreDependency(alwaysTrue(), not(resideInAPackage(module.packagePattern())))
                .because("an adapter can be replaced only if no other adapter reaches into it")
                .allowEmptyShould(true);
    }

    /** TigerBeetle's client is seen only by the TigerBeetle ledger adapter, behind the Ledger port. */
    public static ArchRule onlyTheTigerBeetleAdapterUsesTigerBeetle() {
        return noClasses()
                .that()
                .resideOutsideOfPackage("io.pagora.ledger.adapter.tigerbeetle..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("com.tigerbeetle..")
                .because("every other module reaches TigerBeetle through the Ledger port");
    }

    /** The TigerBeetle ledger adapter knows no SQL: the PostgreSQL ledger is another adapter, not a helper. */
    public static ArchRule theTigerBeetleAdapterIgnoresSql() {
        return noClasses()
                .that()
                .resideInAPackage("io.pagora.ledger.adapter.tigerbeetle..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("java.sql..", "javax.sql..", "org.postgresql..", "org.flywaydb..", "com.zaxxer..")
                .because("each ledger backend stands alone behind the Ledger port")
                .allowEmptyShould(true);
    }

    /** A module that is not a Spring application or Spring configuration has no Spring type at all. */
    public static ArchRule isFreeOfSpring() {
        return noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAPackage("org.springframework..")
                .because("this module is a plain library: it must run where no Spring context exists");
    }

    /** java.base: its java.* packages and its javax security ones (the kernel's PemTls reads PEM into TLS contexts). */
    private static DescribedPredicate<JavaClass> jdk() {
        return resideInAnyPackage("java..", "javax.net..", "javax.security..").and(not(resideInAPackage("java.sql..")));
    }
}
