package io.pagora.service.web;

import io.pagora.kernel.Check;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * At most {@code perParticipantMax} connections per participant, so that no bank can hold the server's
 * connections ({@code server.tomcat.max-connections}) and lock the others out: idle kept-alive connections count
 * as much as busy ones, which a bound on requests in flight never sees.
 *
 * <p>A participant is only known once its connection's TLS handshake has named it, so a connection is counted at
 * its first request ({@link #admit}): one more than the participant's bound is refused, and the caller answers that
 * request 429 and closes the connection, so it is gone at once. A connection is forgotten when the server closes it
 * ({@link #closed}, from {@link ConnectionClosingProtocol}), and in any case once it has carried no request for
 * {@code idleNanos} since its last request began (the longest request and the server's keep-alive timeout, after
 * which the server has closed it): should a close go unseen, the bound errs on the side of refusing for that long.
 *
 * <p>Cheap on the hot path: a request on a connection already counted is one map lookup and one volatile write.
 * Memory is bounded: at most {@code trackedMax} connections are counted; past it (connections churning faster than
 * they can be forgotten) a new connection is refused whoever opens it.
 */
public final class ParticipantConnections {

    private final int perParticipantMax;
    private final long idleNanos;
    private final int trackedMax;
    private final LongSupplier nanoClock;
    /** Every counted connection, by the server's connection id: at most {@link #trackedMax}. */
    private final ConcurrentHashMap<String, Counted> connections = new ConcurrentHashMap<>();
    /** Counted connections per participant; a participant with none has no entry. */
    private final ConcurrentHashMap<String, Integer> perParticipant = new ConcurrentHashMap<>();

    private final AtomicLong nextSweepNanos;

    private static final class Counted {
        final String participant;
        volatile long lastSeenNanos;

        Counted(String participant, long lastSeenNanos) {
            this.participant = participant;
            this.lastSeenNanos = lastSeenNanos;
        }
    }

    /**
     * @param perParticipantMax connections one participant may hold
     * @param idleNanos how long after its last request began the server has surely closed a connection (the
     *     longest request, the keep-alive timeout, and the time the server's idle check may lag)
     * @param trackedMax connections counted at once, whoever holds them
     * @param nanoClock {@link System#nanoTime} but in tests
     */
    public ParticipantConnections(int perParticipantMax, long idleNanos, int trackedMax, LongSupplier nanoClock) {
        Check.that(
                perParticipantMax >= 1 && perParticipantMax <= trackedMax,
                "connections per participant in 1..%d: %d",
                trackedMax,
                perParticipantMax);
        Check.that(idleNanos > 0, "a positive idle time: %d ns", idleNanos);
        Check.that(trackedMax <= 1_000_000, "at most 1000000 connections counted: %d", trackedMax);
        this.perParticipantMax = perParticipantMax;
        this.idleNanos = idleNanos;
        this.trackedMax = trackedMax;
        this.nanoClock = nanoClock;
        this.nextSweepNanos = new AtomicLong(nanoClock.getAsLong());
    }

    /**
     * Whether {@code participant} may use {@code connectionId} for this request. When not, nothing was counted: the
     * caller answers 429 and closes the connection.
     */
    public boolean admit(String participant, String connectionId) {
        long now = nanoClock.getAsLong();
        Counted known = connections.get(connectionId);
        if (known != null) {
            // A connection's certificate never changes, so it stays counted against the participant that opened it.
            known.lastSeenNanos = now;
            return true;
        }
        sweepIfDue(now);
        if (connections.size() >= trackedMax || !takeSlot(participant)) {
            return false;
        }
        Counted racing = connections.putIfAbsent(connectionId, new Counted(participant, now));
        if (racing != null) {
            // Two requests of one new connection at once (HTTP/2): it is counted once.
            releaseSlot(participant);
            racing.lastSeenNanos = now;
        }
        return true;
    }

    /**
     * The participant a counted connection belongs to (its TLS certificate named it when its first request was
     * authenticated; a connection's certificate never changes), or null for a connection not counted (yet): for a
     * refusal answered before authentication runs again. Marks the connection as used.
     */
    public @Nullable String participantOf(String connectionId) {
        Counted known = connections.get(connectionId);
        if (known == null) {
            return null;
        }
        known.lastSeenNanos = nanoClock.getAsLong();
        return known.participant;
    }

    /** The server closed this connection: it counts no more (a connection never counted is ignored). */
    public void closed(String connectionId) {
        Counted counted = connections.remove(connectionId);
        if (counted != null) {
            releaseSlot(counted.participant);
        }
    }

    /** Connections counted for {@code participant} now (a gauge, and tests). */
    public int connectionsOf(String participant) {
        return perParticipant.getOrDefault(participant, 0);
    }

    /** Connections counted now, whoever holds them (a gauge). */
    public int connections() {
        return connections.size();
    }

    public int perParticipantMax() {
        return perParticipantMax;
    }

    private boolean takeSlot(String participant) {
        boolean[] taken = {false};
        perParticipant.compute(participant, (name, held) -> {
            int count = held == null ? 0 : held;
            if (count >= perParticipantMax) {
                return held;
            }
            taken[0] = true;
            return count + 1;
        });
        return taken[0];
    }

    private void releaseSlot(String participant) {
        boolean[] held = {false};
        perParticipant.computeIfPresent(participant, (name, count) -> {
            held[0] = true;
            return count == 1 ? null : count - 1;
        });
        Check.that(held[0], "a connection is released only by a participant that holds one");
    }

    /**
     * Forgets the connections idle past {@link #idleNanos}, at most once per {@code idleNanos / 8} (one thread: the
     * one that wins the due time). Bounded by {@link #trackedMax}.
     */
    private void sweepIfDue(long now) {
        long due = nextSweepNanos.get();
        if (now - due < 0 || !nextSweepNanos.compareAndSet(due, now + Math.max(1, idleNanos / 8))) {
            return;
        }
        for (Map.Entry<String, Counted> entry : connections.entrySet()) {
            Counted counted = entry.getValue();
            if (now - counted.lastSeenNanos > idleNanos && connections.remove(entry.getKey(), counted)) {
                releaseSlot(counted.participant);
            }
        }
    }
}
