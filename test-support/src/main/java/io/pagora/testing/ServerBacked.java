package io.pagora.testing;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a test class that runs against real servers (Kafka, PostgreSQL, TigerBeetle, a Spring application).
 * Such classes run in {@code ./mvnw verify} (failsafe), not in the unit lane, {@code ./mvnw test} (surefire):
 * the unit lane stays short enough to run on every change. Inherited, so a base class marks its subclasses.
 *
 * <p>Forgetting it cannot go unnoticed for the servers of this module: {@link TestLane} makes each one refuse
 * to start in the unit lane.
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@Tag(TestLane.SERVER_TAG)
public @interface ServerBacked {}
