package io.pagora.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.util.List;

/** The one condition behind the allow-list rules: every direct dependency goes to an allowed class. */
final class Dependencies {

    private Dependencies() {}

    /**
     * Passes a class whose every direct dependency targets a primitive, an allowed class, or is one of
     * the known violations. Arrays count as their component type.
     */
    static ArchCondition<JavaClass> onlyOn(DescribedPredicate<? super JavaClass> allowed, List<KnownViolation> known) {
        return new ArchCondition<>("only depend on " + allowed.getDescription()) {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                    JavaClass target = dependency.getTargetClass().getBaseComponentType();
                    if (!target.isPrimitive() && !allowed.test(target) && !isKnown(dependency, target, known)) {
                        events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
                    }
                }
            }
        };
    }

    private static boolean isKnown(Dependency dependency, JavaClass target, List<KnownViolation> known) {
        return known.stream().anyMatch(violation -> violation.covers(dependency.getOriginClass(), target));
    }
}
