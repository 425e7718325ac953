package io.pagora.service.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * No participant holds more than its connections, idle ones included; the others are not affected; a connection
 * is forgotten once the server has surely closed it for idleness, and only then; and the count itself is bounded.
 */
class ParticipantConnectionsTest {

    static final long IDLE_NANOS = 60_000_000_000L;

    final AtomicLong now = new AtomicLong(1_000);
    final ParticipantConnections connections = new ParticipantConnections(2, IDLE_NANOS, 8, now::get);

    @Test
    void aParticipantPastItsConnectionsIsRefusedWhileAnotherIsAdmitted() {
        assertThat(connections.admit("ispb-1", "c1")).isTrue();
        assertThat(connections.admit("ispb-1", "c2")).isTrue();

        assertThat(connections.admit("ispb-1", "c3"))
                .as("a third connection of the same bank")
                .isFalse();
        assertThat(connections.admit("ispb-2", "c4")).as("another bank").isTrue();
        assertThat(connections.connectionsOf("ispb-1")).isEqualTo(2);
        assertThat(connections.connectionsOf("ispb-2")).isEqualTo(1);
    }

    @Test
    void theConnectionsAParticipantHoldsKeepWorkingAtItsBound() {
        connections.admit("ispb-1", "c1");
        connections.admit("ispb-1", "c2");

        for (int request = 0; request < 100; request++) {
            assertThat(connections.admit("ispb-1", request % 2 == 0 ? "c1" : "c2"))
                    .isTrue();
        }
        assertThat(connections.connectionsOf("ispb-1")).isEqualTo(2);
    }

    @Test
    void anIdleConnectionCountsUntilTheServerHasSurelyClosedItThenIsForgotten() {
        connections.admit("ispb-1", "c1");
        connections.admit("ispb-1", "c2");

        now.addAndGet(IDLE_NANOS);
        assertThat(connections.admit("ispb-1", "c3"))
                .as("idle exactly the keep-alive: maybe still open")
                .isFalse();

        now.addAndGet(IDLE_NANOS / 8 + 1);
        assertThat(connections.admit("ispb-1", "c3"))
                .as("idle past it: closed by the server")
                .isTrue();
        assertThat(connections.connectionsOf("ispb-1")).isEqualTo(1);
        assertThat(connections.connections()).isEqualTo(1);
    }

    @Test
    void aConnectionTheServerClosedCountsNoMoreAtOnce() {
        connections.admit("ispb-1", "c1");
        connections.admit("ispb-1", "c2");

        connections.closed("c1");
        connections.closed("c1");
        connections.closed("never-counted");

        assertThat(connections.connectionsOf("ispb-1"))
                .as("closed twice, released once")
                .isEqualTo(1);
        assertThat(connections.admit("ispb-1", "c3"))
                .as("no keep-alive timeout to wait for")
                .isTrue();
        assertThat(connections.admit("ispb-1", "c4")).isFalse();
    }

    /** What an early refusal relies on: a connection's participant, known only while the connection is counted. */
    @Test
    void aCountedConnectionNamesItsParticipantAndNoOtherConnectionDoes() {
        connections.admit("ispb-1", "c1");
        connections.admit("ispb-2", "c2");
        connections.admit("ispb-1", "c3");
        connections.admit("ispb-1", "c4"); // refused: never counted

        assertThat(connections.participantOf("c1")).isEqualTo("ispb-1");
        assertThat(connections.participantOf("c2")).isEqualTo("ispb-2");
        assertThat(connections.participantOf("c4")).as("refused, so not known").isNull();
        assertThat(connections.participantOf("never-seen")).isNull();
        connections.closed("c1");
        assertThat(connections.participantOf("c1"))
                .as("closed: an id Tomcat may give again")
                .isNull();
    }

    /** Requests refused early keep their connection in use, as requests admitted do. */
    @Test
    void aConnectionWhoseParticipantIsAskedForIsInUse() {
        connections.admit("ispb-1", "c1");
        for (int minute = 0; minute < 10; minute++) {
            now.addAndGet(IDLE_NANOS / 2);
            assertThat(connections.participantOf("c1")).isEqualTo("ispb-1");
            connections.admit("ispb-1", "other-" + minute); // a new connection sweeps the idle ones
            connections.closed("other-" + minute);
        }
        assertThat(connections.connectionsOf("ispb-1")).isEqualTo(1);
    }

    @Test
    void aConnectionInUseIsNeverForgotten() {
        connections.admit("ispb-1", "c1");
        connections.admit("ispb-1", "c2");
        for (int minute = 0; minute < 10; minute++) {
            now.addAndGet(IDLE_NANOS / 2);
            connections.admit("ispb-1", "c1");
            connections.admit("ispb-1", "c2");
        }

        assertThat(connections.admit("ispb-1", "c3")).isFalse();
        assertThat(connections.connectionsOf("ispb-1")).isEqualTo(2);
    }

    @Test
    void pastTheCountedConnectionsAnyNewConnectionIsRefusedWhoeverOpensIt() {
        for (int bank = 0; bank < 4; bank++) {
            assertThat(connections.admit("ispb-" + bank, "a" + bank)).isTrue();
            assertThat(connections.admit("ispb-" + bank, "b" + bank)).isTrue();
        }

        assertThat(connections.admit("ispb-9", "c9"))
                .as("8 counted: the bound of the count itself")
                .isFalse();
        assertThat(connections.connectionsOf("ispb-9")).isZero();
        assertThat(connections.admit("ispb-0", "a0"))
                .as("a counted connection still works")
                .isTrue();
    }

    @Test
    void aBoundAboveWhatIsCountedIsRefusedAtConstruction() {
        assertThatThrownBy(() -> new ParticipantConnections(9, IDLE_NANOS, 8, now::get))
                .hasMessageContaining("connections per participant in 1..8");
    }
}
