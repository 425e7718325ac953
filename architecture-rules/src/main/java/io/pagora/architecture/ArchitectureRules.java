package io.pagora.architecture;

import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;

/**
 * Every architecture rule for one module, as JUnit tests: its place in the module map and its
 * layering. A module's ArchitectureTest is one {@code @TestFactory} returning {@link #tests()}; the
 * rules themselves live here and in {@link ModuleRules} and {@link LayeredRules}, never in a module.
 *
 * <p>Plain JUnit dynamic tests (not ArchUnit's own engine), so they run on whatever JUnit platform the
 * build uses, and each rule passes or fails on its own line.
 */
public final class ArchitectureRules {

    private final PagoraModule module;
    private final List<KnownViolation> known = new ArrayList<>();

    private ArchitectureRules(PagoraModule module) {
        this.module = module;
    }

    public static ArchitectureRules of(PagoraModule module) {
        return new ArchitectureRules(module);
    }

    /** Lets these dependencies pass every rule, and only these: each is a debt its module's test names. */
    public ArchitectureRules tolerating(KnownViolation... violations) {
        known.addAll(List.of(violations));
        return this;
    }

    public Stream<DynamicTest> tests() {
        List<ArchRule> rules = new ArrayList<>(List.of(
                ModuleRules.dependsOnlyOnAllowedModules(module, known),
                ModuleRules.staysInItsPackage(module),
                LayeredRules.domainIsPlainJava(known),
                LayeredRules.applicationUsesOnlyDomainAndPorts(known),
                LayeredRules.adaptersDoNotDependOnEachOther(module),
                LayeredRules.onlyTheTigerBeetleAdapterUsesTigerBeetle(),
                LayeredRules.theTigerBeetleAdapterIgnoresSql()));
        if (module.framework() == PagoraModule.Framework.NONE) {
            rules.add(LayeredRules.isFreeOfSpring());
        }
        return rules.stream().map(rule -> dynamicTest(rule.getDescription(), () -> rule.check(classes())));
    }

    private JavaClasses classes() {
        return module.mainClasses();
    }
}
