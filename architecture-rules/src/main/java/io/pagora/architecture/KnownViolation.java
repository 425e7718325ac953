package io.pagora.architecture;

import com.tngtech.archunit.core.domain.JavaClass;

/**
 * One dependency a rule lets pass for now, named where the module's ArchitectureTest declares it, with
 * the reason and who removes it: every other dependency of the same kind still fails the rule.
 *
 * @param originClass   the class (with its nested classes) that has the dependency
 * @param targetPackage the package (and below) it depends on
 * @param reason        why it is there and what removes it
 */
public record KnownViolation(String originClass, String targetPackage, String reason) {

    public KnownViolation {
        if (originClass.isBlank() || targetPackage.isBlank() || reason.isBlank()) {
            throw new IllegalArgumentException("a known violation names its origin, its target and why");
        }
    }

    boolean covers(JavaClass origin, JavaClass target) {
        String name = origin.getName();
        boolean fromOrigin = name.equals(originClass) || name.startsWith(originClass + "$");
        String targetPackageName = target.getPackageName();
        return fromOrigin
                && (targetPackageName.equals(targetPackage) || targetPackageName.startsWith(targetPackage + "."));
    }
}
