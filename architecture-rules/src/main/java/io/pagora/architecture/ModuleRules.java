package io.pagora.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.lang.ArchRule;
import java.util.Arrays;
import java.util.List;

/**
 * Rules between modules, read from the {@link PagoraModule} map. Each module's ArchitectureTest checks
 * its own outgoing dependencies, so a violation fails the build of the module that introduced it.
 */
public final class ModuleRules {

    private ModuleRules() {}

    /**
     * The module's main classes use no Pagora code outside the modules the map allows it: not another
     * service, not local-runtime or test-support, not an adapter where only the port is allowed, and
     * not a package the map does not know yet.
     */
    public static ArchRule dependsOnlyOnAllowedModules(PagoraModule module, List<KnownViolation> known) {
        List<PagoraModule> usable =
                Arrays.stream(PagoraModule.values()).filter(module::mayUse).toList();
        String[] usablePackages =
                usable.stream().map(PagoraModule::packagePattern).toArray(String[]::new);
        return classes()
                .should(Dependencies.onlyOn(
                        not(resideInAPackage("io.pagora.."))
                                .or(resideInAnyPackage(usablePackages))
                                .as("non-Pagora classes and " + usable),
                        known))
                .because(module + "'s place in the module map (io.pagora.architecture.PagoraModule)");
    }

    /**
     * Every main class of the module lives in its root package, so the map's package-based rules see
     * it: a new package in a module is a new entry in the map.
     */
    public static ArchRule staysInItsPackage(PagoraModule module) {
        return classes()
                .should()
                .resideInAPackage(module.packagePattern())
                .because("the module map tells modules apart by package; add a new one to PagoraModule");
    }
}
