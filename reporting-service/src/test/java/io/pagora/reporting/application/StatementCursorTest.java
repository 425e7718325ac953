package io.pagora.reporting.application;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.reporting.application.ReadModelQueries.Direction;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Proves the statement cursor round-trips exactly (microseconds, id, direction) and refuses anything else. */
class StatementCursorTest {

    @Test
    void roundTrips() {
        StatementCursor cursor = new StatementCursor(
                Instant.parse("2030-05-06T07:08:09.123456Z"),
                Id128.parse("0190f5d3a1b2c3d4e5f60718293a4b00"),
                Direction.CREDIT);
        String encoded = cursor.encode();
        assertThat(encoded).matches("[A-Za-z0-9_-]+");
        assertThat(StatementCursor.decode(encoded)).contains(cursor);
    }

    @Test
    void refusesWhatItDidNotMake() {
        assertThat(StatementCursor.decode("")).isEmpty();
        assertThat(StatementCursor.decode("%%%")).isEmpty();
        assertThat(StatementCursor.decode("x".repeat(500))).isEmpty();
        assertThat(StatementCursor.decode(encode("s2:1:0190f5d3a1b2c3d4e5f60718293a4b00:D")))
                .isEmpty();
        assertThat(StatementCursor.decode(encode("s1:1:0190f5d3a1b2c3d4e5f60718293a4b00:X")))
                .isEmpty();
        assertThat(StatementCursor.decode(encode("s1:99999999999999999999:0190f5d3a1b2c3d4e5f60718293a4b00:D")))
                .isEmpty();
        assertThat(StatementCursor.decode(encode("s1:1:0190:D"))).isEmpty();
        assertThat(StatementCursor.decode(encode("s1:1:0190f5d3a1b2c3d4e5f60718293a4b00:D:extra")))
                .isEmpty();
    }

    private static String encode(String text) {
        return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes());
    }
}
