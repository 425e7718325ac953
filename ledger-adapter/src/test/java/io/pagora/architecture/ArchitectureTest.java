package io.pagora.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Guards the layering: the domain (ledger port and PIX model) knows nothing of TigerBeetle, JDBC,
 * Spring, Micrometer (metrics are a decorator, adapter.metrics) or any adapter; adapters do not depend
 * on each other; the application layer speaks only to the port.
 */
class ArchitectureTest {

    // Plain JUnit tests (not ArchUnit's own engine) so they run on whatever JUnit platform the build uses.
    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.pagora");

    private static final String[] INFRASTRUCTURE = {
        "com.tigerbeetle..", "java.sql..", "javax.sql..", "org.postgresql..", "org.flywaydb..", "com.zaxxer..",
        "org.springframework..", "org.apache.kafka..", "io.micrometer..", "io.pagora..adapter.."
    };

    @Test
    void domainIsFreeOfInfrastructure() {
        noClasses()
                .that().resideInAPackage("io.pagora..domain..")
                .should().dependOnClassesThat().resideInAnyPackage(INFRASTRUCTURE)
                .because("the domain is plain Java: backends are adapters behind the Ledger port")
                .check(PRODUCTION);
    }

    @Test
    void applicationUsesOnlyThePort() {
        noClasses()
                .that().resideInAPackage("io.pagora..application..")
                .should().dependOnClassesThat().resideInAnyPackage(INFRASTRUCTURE)
                .because("settlement logic must run unchanged on either ledger backend")
                .check(PRODUCTION);
    }

    @Test
    void postgresAdapterIgnoresTigerBeetle() {
        noClasses()
                .that().resideInAPackage("io.pagora.ledger.adapter.postgres..")
                .should().dependOnClassesThat().resideInAnyPackage("com.tigerbeetle..", "io.pagora.ledger.adapter.tigerbeetle..")
                .check(PRODUCTION);
    }

    @Test
    void tigerBeetleAdapterIgnoresPostgres() {
        noClasses()
                .that().resideInAPackage("io.pagora.ledger.adapter.tigerbeetle..")
                .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "org.postgresql..", "io.pagora.ledger.adapter.postgres..")
                .check(PRODUCTION);
    }
}
