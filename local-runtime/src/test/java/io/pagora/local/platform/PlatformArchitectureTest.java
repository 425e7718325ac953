package io.pagora.local.platform;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The launcher (this package) supervises; the tools (seed, report, bench, verify, chaos-check, ...) measure and
 * judge. The launcher runs a tool only as a process of its own, with the options its command line names, so each
 * side can be read and tested alone, and a tool's heap or failure cannot take the launcher down.
 */
class PlatformArchitectureTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("io.pagora.local");

    @Test
    void the_launcher_calls_no_tool_in_process() {
        noClasses().that().resideInAPackage("io.pagora.local.platform..").should().dependOnClassesThat()
                .resideInAPackage("io.pagora.local").check(CLASSES);
    }

    @Test
    void no_tool_reaches_into_the_launcher_only_the_jars_entry_point_dispatches_to_it() {
        noClasses().that().resideInAPackage("io.pagora.local").and().doNotHaveSimpleName("LocalRuntime")
                .should().dependOnClassesThat().resideInAPackage("io.pagora.local.platform..").check(CLASSES);
    }
}
