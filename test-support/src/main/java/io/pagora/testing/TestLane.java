package io.pagora.testing;

/**
 * Which lane a test JVM runs in. The root pom's surefire sets {@value #PROPERTY}={@value #UNIT} for the unit
 * lane ({@code ./mvnw test}); failsafe ({@code ./mvnw verify}) runs the {@link ServerBacked} classes without it.
 */
public final class TestLane {

    /** The JUnit tag of server-backed test classes; the poms select lanes by it. */
    public static final String SERVER_TAG = "server";

    public static final String PROPERTY = "pagora.test.lane";
    public static final String UNIT = "unit";

    private TestLane() {}

    /**
     * Called by every server this module starts for tests: in the unit lane it refuses, so a server-backed test
     * class without {@link ServerBacked} fails there, naming itself, instead of slowing the lane down silently.
     */
    public static void requireServerLane(String server) {
        if (UNIT.equals(System.getProperty(PROPERTY))) {
            throw new IllegalStateException(server + " was asked to start in the unit lane (./mvnw test): mark the"
                    + " test class (or its base class) @" + ServerBacked.class.getSimpleName()
                    + ", so it runs in ./mvnw verify");
        }
    }
}
