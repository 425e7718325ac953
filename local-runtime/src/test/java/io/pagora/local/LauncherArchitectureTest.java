package io.pagora.local;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The launcher ({@code io.pagora.local.launcher..}) supervises; the tools (bench, chaos, demo, load and the
 * packages they share) measure and judge. The launcher runs a tool only as a process of its own, with the options
 * its command line names, so each side can be read and tested alone, and a tool's heap or failure cannot take the
 * launcher down. Only the jar's entry point ({@link LocalRuntime}) names both sides. Both read their command lines
 * with the one parser ({@code io.pagora.local.cli}), which is no tool.
 */
class LauncherArchitectureTest {

    static final String LAUNCHER = "io.pagora.local.launcher..";

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.pagora.local");

    @Test
    void the_launcher_calls_no_tool_in_process() {
        noClasses()
                .that()
                .resideInAPackage(LAUNCHER)
                .should()
                .dependOnClassesThat(DescribedPredicate.describe(
                        "are in a local-runtime tool",
                        (JavaClass target) -> target.getPackageName().startsWith("io.pagora.local")
                                && !target.getPackageName().startsWith("io.pagora.local.launcher")
                                && !target.getPackageName().equals("io.pagora.local.cli")))
                .because("the launcher starts the tools as processes of their own")
                .check(CLASSES);
    }

    @Test
    void no_tool_reaches_into_the_launcher_only_the_jars_entry_point_dispatches_to_it() {
        noClasses()
                .that()
                .resideInAPackage("io.pagora.local..")
                .and()
                .resideOutsideOfPackage(LAUNCHER)
                .and()
                .doNotHaveSimpleName("LocalRuntime")
                .should()
                .dependOnClassesThat()
                .resideInAPackage(LAUNCHER)
                .check(CLASSES);
    }

    @Test
    void the_platforms_processes_know_no_command() {
        noClasses()
                .that()
                .resideInAPackage("io.pagora.local.launcher.platform..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.pagora.local.launcher.commands..")
                .because("the commands (demo, bench, chaos) drive the platform, never the other way")
                .check(CLASSES);
    }
}
