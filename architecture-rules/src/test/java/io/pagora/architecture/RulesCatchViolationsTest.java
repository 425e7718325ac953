package io.pagora.architecture;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Proves that each shared rule fails on the violation it exists for, so a module's green
 * ArchitectureTest means something. The fixtures (io.pagora.reporting.fixture, test classes only)
 * pretend to be reporting-service code: a domain using JDBC, a use case calling an adapter, one
 * adapter using another, and reporting code using a ledger adapter; one more
 * (io.pagora.ledger.adapter.tigerbeetle.fixture) is TigerBeetle adapter code using JDBC.
 */
class RulesCatchViolationsTest {

    private static final JavaClasses FIXTURES = new ClassFileImporter().importPackages("io.pagora.reporting.fixture");
    private static final String JDBC_ADAPTER = "io.pagora.reporting.fixture.adapter.jdbc.JdbcAdapter";

    @Test
    void aDomainUsingJdbcFails() {
        assertFails(
                LayeredRules.domainIsPlainJava(List.of()), "SqlInDomain.connection> has type <java.sql.Connection>");
    }

    @Test
    void aUseCaseCallingAnAdapterFails() {
        assertFails(LayeredRules.applicationUsesOnlyDomainAndPorts(List.of()), "AdapterInApplication.web> has type");
    }

    @Test
    void anAdapterUsingAnotherAdapterOfItsModuleFails() {
        assertFails(
                LayeredRules.adaptersDoNotDependOnEachOther(PagoraModule.REPORTING_SERVICE),
                "Slice reporting.fixture - web depends on Slice reporting.fixture - jdbc");
    }

    @Test
    void reportingUsingALedgerAdapterFails() {
        assertFails(
                ModuleRules.dependsOnlyOnAllowedModules(PagoraModule.REPORTING_SERVICE, List.of()),
                "JdbcAdapter.backend> has type <io.pagora.ledger.adapter.fixture.LedgerBackend>");
    }

    @Test
    void theTigerBeetleAdapterUsingJdbcFails() {
        JavaClasses tigerBeetleFixture =
                new ClassFileImporter().importPackages("io.pagora.ledger.adapter.tigerbeetle.fixture");

        assertThatThrownBy(() -> LayeredRules.theTigerBeetleAdapterIgnoresSql().check(tigerBeetleFixture))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("SqlInTigerBeetle.dataSource> has type <javax.sql.DataSource>");
    }

    @Test
    void aKnownViolationLetsExactlyItsOwnDependencyPass() {
        var known = new KnownViolation(JDBC_ADAPTER, "io.pagora.ledger.adapter", "the fixture's debt");
        var elsewhere = new KnownViolation(
                "io.pagora.reporting.fixture.adapter.web.WebAdapter",
                "io.pagora.ledger.adapter",
                "names another class");

        assertThatCode(() -> ModuleRules.dependsOnlyOnAllowedModules(PagoraModule.REPORTING_SERVICE, List.of(known))
                        .check(FIXTURES))
                .doesNotThrowAnyException();
        assertFails(
                ModuleRules.dependsOnlyOnAllowedModules(PagoraModule.REPORTING_SERVICE, List.of(elsewhere)),
                "JdbcAdapter.backend");
    }

    @Test
    void classesOutsideTheModulesPackageFail() {
        assertFails(
                ModuleRules.staysInItsPackage(PagoraModule.CLEARING_SERVICE),
                "<io.pagora.reporting.fixture.domain.SqlInDomain> does not reside in a package 'io.pagora.clearing..'");
    }

    private static void assertFails(ArchRule rule, String violation) {
        assertThatThrownBy(() -> rule.check(FIXTURES))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(violation);
    }
}
