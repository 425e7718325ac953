package io.pagora.clearing.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Guards the clearing service's layering: the domain and the application (the clearing use case and
 * its ports) know nothing of Spring, Kafka, JDBC or any adapter, so the receiving bank, the outcome
 * publisher and the ledger backend can each be replaced; adapters do not depend on each other.
 */
class ClearingArchitectureTest {

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.pagora.clearing");

    private static final String[] INFRASTRUCTURE = {
        "org.springframework..", "org.apache.kafka..", "io.micrometer..", "java.sql..", "javax.sql..",
        "com.tigerbeetle..", "org.postgresql..", "io.pagora.ledger.adapter..", "io.pagora.clearing.adapter..",
        "io.pagora.clearing.config.."
    };

    @Test
    void domainAndApplicationAreFreeOfInfrastructure() {
        noClasses()
                .that().resideInAnyPackage("io.pagora.clearing.domain..", "io.pagora.clearing.application..")
                .should().dependOnClassesThat().resideInAnyPackage(INFRASTRUCTURE)
                .because("clearing's logic talks to ports; Kafka, the bank connector and the ledger backend are adapters")
                .check(PRODUCTION);
    }

    @Test
    void adaptersDoNotDependOnEachOther() {
        noClasses()
                .that().resideInAPackage("io.pagora.clearing.adapter.bank..")
                .should().dependOnClassesThat().resideInAnyPackage("io.pagora.clearing.adapter.kafka..",
                        "io.pagora.clearing.adapter.ledger..", "io.pagora.clearing.adapter.metrics..")
                .check(PRODUCTION);
        noClasses()
                .that().resideInAPackage("io.pagora.clearing.adapter.ledger..")
                .should().dependOnClassesThat().resideInAnyPackage("io.pagora.clearing.adapter.kafka..",
                        "io.pagora.clearing.adapter.bank..", "io.pagora.clearing.adapter.metrics..")
                .check(PRODUCTION);
        noClasses()
                .that().resideInAPackage("io.pagora.clearing.adapter.kafka..")
                .should().dependOnClassesThat().resideInAnyPackage("io.pagora.clearing.adapter.bank..",
                        "io.pagora.clearing.adapter.ledger..", "io.pagora.clearing.adapter.metrics..")
                .check(PRODUCTION);
        // Metrics observe the ports (decorators wired in config), never a particular adapter.
        noClasses()
                .that().resideInAPackage("io.pagora.clearing.adapter.metrics..")
                .should().dependOnClassesThat().resideInAnyPackage("io.pagora.clearing.adapter.kafka..",
                        "io.pagora.clearing.adapter.bank..", "io.pagora.clearing.adapter.ledger..")
                .check(PRODUCTION);
    }
}
