package io.pagora.payments.api.application.streams;

import io.pagora.kernel.Check;
import io.pagora.payments.api.domain.Refusal;
import io.pagora.payments.api.domain.RefusalException;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.settlement.domain.BankId;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Each participant's pull streams over its messages (docs/participants.md): at-least-once, in order per bank,
 * messages shared out among a bank's open streams.
 *
 * <p>A pull hands its stream a lease on a range of the bank's log and a one-shot token for the next pull; the next
 * pull (or closing the stream with it) acknowledges that range. The durable position is the start of the oldest range
 * not yet acknowledged, so a crash or restart of anything redelivers what was not acknowledged, and never what was.
 * A range not acknowledged within {@code leaseTimeout} (its stream went away) goes to the next pull of any of the
 * bank's streams. The same token again (an answer lost on the way) returns the same range again.
 *
 * <p>State is this instance's: a bank's streams must be served by one payment-api instance (docs/participants.md).
 *
 * <p>Over 400 lines on purpose: the tokens, leases and streams are this class's private state, guarded by one lock
 * per bank; split into classes, each would expose what only this lock may touch.
 */
public final class ParticipantStreams {

    /**
     * @param streamsMax open streams per participant (PIX's ICOM: 6)
     * @param messagesMax messages per pull at most (whole records: a pull may return fewer)
     * @param waitMax how long an empty pull waits for messages before answering "nothing new"
     * @param leaseTimeout how long a pulled range waits for its acknowledgement before another pull gets it again
     * @param idleTimeout a stream not pulled for this long is closed
     */
    public record Limits(
            int streamsMax, int messagesMax, Duration waitMax, Duration leaseTimeout, Duration idleTimeout) {

        public Limits {
            Check.that(streamsMax >= 1 && streamsMax <= 64, "streams per participant in [1, 64]: %d", streamsMax);
            Check.that(messagesMax >= 1 && messagesMax <= 10_000, "messages per pull in [1, 10000]: %d", messagesMax);
            Check.that(
                    !waitMax.isNegative() && waitMax.compareTo(Duration.ofSeconds(60)) <= 0,
                    "pull wait in [0, 60s]: %s",
                    waitMax);
            Check.that(leaseTimeout.toMillis() >= 250, "lease timeout at least 250ms: %s", leaseTimeout);
            Check.that(idleTimeout.compareTo(waitMax) > 0, "idle timeout above the pull wait: %s", idleTimeout);
        }
    }

    /** What a pull returns: its records (JSON arrays of messages), their message count, and the next pull's token. */
    public record Pull(java.util.List<byte[]> records, int count, String nextToken, long oldestMillis) {

        Pull(java.util.List<byte[]> records, int count, String nextToken) {
            this(records, count, nextToken, 0);
        }
    }

    /** A pull's wait is spent in slices of at most this, without holding the bank's state. */
    static final long WAIT_SLICE_MILLIS = 100;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final MessageLog log;
    private final StreamPositions positions;
    private final Limits limits;
    private final Clock clock;
    private final Map<BankId, BankStreams> banks = new ConcurrentHashMap<>();

    public ParticipantStreams(MessageLog log, StreamPositions positions, Limits limits, Clock clock) {
        this.log = log;
        this.positions = positions;
        this.limits = limits;
        this.clock = clock;
    }

    /** Opens a stream and pulls its first messages. @throws RefusalException 429 beyond {@code streamsMax} */
    public Pull start(BankId bank) {
        BankStreams streams = streamsOf(bank);
        Token token;
        synchronized (streams) {
            streams.closeIdle(now());
            if (streams.open.size() >= limits.streamsMax()) {
                throw new RefusalException(Refusal.of(
                        RefusalReason.TOO_MANY_STREAMS,
                        "participant " + bank + " has " + streams.open.size()
                                + " open streams, the most allowed: close one (DELETE its next pull)"));
            }
            Stream stream = new Stream(HexFormat.of().formatHex(randomBytes()));
            streams.open.put(stream.id, stream);
            token = new Token(stream.id, 0);
        }
        try {
            return pull(bank, token.toString());
        } catch (RuntimeException e) {
            // The client never got this stream's token: left open, it would count toward streamsMax until idle.
            synchronized (streams) {
                Stream stream = streams.open.remove(token.streamId());
                if (stream != null) {
                    streams.release(stream);
                }
            }
            throw e;
        }
    }

    /** Acknowledges the stream's previous pull and pulls the next messages. @throws RefusalException for a bad token */
    public Pull pull(BankId bank, String tokenText) {
        Token token = Token.parse(tokenText);
        BankStreams streams = streamsOf(bank);
        long deadline = now() + limits.waitMax().toMillis();
        while (true) {
            synchronized (streams) {
                Stream stream = streams.stream(token);
                if (token.seq() == stream.seq - 1) {
                    return repeat(bank, streams, stream);
                }
                streams.acknowledge(stream, now());
                MessageLog.Slice slice = streams.next(bank, stream, now());
                if (slice.count() > 0 || now() >= deadline) {
                    stream.seq++;
                    return new Pull(
                            slice.records(),
                            slice.count(),
                            new Token(stream.id, stream.seq).toString(),
                            slice.oldestMillis());
                }
            }
            sleep(Math.min(WAIT_SLICE_MILLIS, Math.max(1, deadline - now())));
        }
    }

    /** Acknowledges the stream's previous pull and closes it. @throws RefusalException for a bad token */
    public void close(BankId bank, String tokenText) {
        Token token = Token.parse(tokenText);
        BankStreams streams = streamsOf(bank);
        synchronized (streams) {
            Stream stream = streams.stream(token);
            if (token.seq() == stream.seq) {
                streams.acknowledge(stream, now());
            }
            streams.release(stream);
            streams.open.remove(stream.id);
        }
    }

    /** Open streams of a bank (a metric). */
    public int openStreams(BankId bank) {
        BankStreams streams = banks.get(bank);
        if (streams == null) {
            return 0;
        }
        synchronized (streams) {
            return streams.open.size();
        }
    }

    /** The same range as the stream's last pull, again: its answer was lost on the way. */
    private Pull repeat(BankId bank, BankStreams streams, Stream stream) {
        stream.lastPullMillis = now();
        Lease lease = stream.lease;
        Token next = new Token(stream.id, stream.seq);
        if (lease == null) {
            return new Pull(java.util.List.of(), 0, next.toString());
        }
        MessageLog.Slice slice = log.read(bank, lease.from, lease.to, Integer.MAX_VALUE, 0);
        // Read again only in part (a slow fetch): the next pull acknowledges what this one hands out, no more.
        stream.lease = streams.handOut(lease, slice.next(), streams.logStartIfNothingRead(lease, slice));
        return new Pull(slice.records(), slice.count(), next.toString(), slice.oldestMillis());
    }

    private BankStreams streamsOf(BankId bank) {
        return banks.computeIfAbsent(bank, BankStreams::new);
    }

    private long now() {
        return clock.millis();
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[12];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for messages", e);
        }
    }

    /** A pull token: the stream and its pull sequence number, {@code <24 hex>.<seq>}. */
    record Token(String streamId, long seq) {

        private static final int TEXT_CHARS_MAX = 64;

        static Token parse(String text) {
            int dot = text == null ? -1 : text.indexOf('.');
            if (dot != 24 || text.length() > TEXT_CHARS_MAX) {
                throw malformed();
            }
            String id = text.substring(0, dot);
            for (int i = 0; i < id.length(); i++) {
                if (Character.digit(id.charAt(i), 16) < 0 || Character.isUpperCase(id.charAt(i))) {
                    throw malformed();
                }
            }
            try {
                long seq = Long.parseLong(text.substring(dot + 1));
                if (seq < 0) {
                    throw malformed();
                }
                return new Token(id, seq);
            } catch (NumberFormatException e) {
                throw malformed();
            }
        }

        private static RefusalException malformed() {
            return new RefusalException(Refusal.of(
                    RefusalReason.MALFORMED_TOKEN,
                    "a stream token is 24 lowercase hex digits, a dot and a pull number, as PI-Pull-Next gives it"));
        }

        @Override
        public String toString() {
            return streamId + "." + seq;
        }
    }

    private static final class Stream {
        final String id;
        /** The sequence number the next pull's token carries. */
        long seq;

        Lease lease;
        long lastPullMillis;

        Stream(String id) {
            this.id = id;
        }
    }

    /** A range of the log handed to one stream, until it is acknowledged or its lease runs out. */
    private static final class Lease {
        final long from;
        final long to;
        Stream holder;
        long expiresMillis;

        Lease(long from, long to) {
            Check.that(from < to, "a lease covers at least one position: [%d, %d)", from, to);
            this.from = from;
            this.to = to;
        }
    }

    /** One bank's streams, leases and positions; guarded by its own monitor. */
    private final class BankStreams {
        final BankId bank;
        final Map<String, Stream> open = new LinkedHashMap<>();
        /** Unacknowledged leases and ranges to redeliver, by start. */
        final TreeMap<Long, Lease> outstanding = new TreeMap<>();

        final ArrayDeque<Lease> redeliver = new ArrayDeque<>();
        int partition = -1;
        long acknowledged;
        long frontier;

        BankStreams(BankId bank) {
            this.bank = bank;
        }

        Stream stream(Token token) {
            closeIdle(now());
            Stream stream = open.get(token.streamId());
            if (stream == null) {
                throw new RefusalException(Refusal.of(
                        RefusalReason.UNKNOWN_STREAM,
                        "stream " + token.streamId()
                                + " is closed, expired (idle over "
                                + limits.idleTimeout().toSeconds() + " s) or was never"
                                + " opened: start a new one; unacknowledged messages are delivered again"));
            }
            if (token.seq() != stream.seq && token.seq() != stream.seq - 1) {
                throw new RefusalException(Refusal.of(
                        RefusalReason.STALE_TOKEN,
                        "pull " + token.seq() + " of stream "
                                + stream.id + " is "
                                + (token.seq() < stream.seq ? "already acknowledged" : "not issued yet")
                                + ": use the last PI-Pull-Next"));
            }
            return stream;
        }

        void acknowledge(Stream stream, long nowMillis) {
            stream.lastPullMillis = nowMillis;
            Lease lease = stream.lease;
            stream.lease = null;
            if (lease != null) {
                outstanding.remove(lease.from);
                saveAcknowledged();
            }
        }

        /**
         * The stream's next range: a lapsed one first, else new records from the frontier (no wait). The stream's
         * lease covers exactly what was read: a read that stops early (the log's read timeout) or fails leaves the
         * rest of a lapsed range first in line for the next pull, never acknowledged unread.
         */
        MessageLog.Slice next(BankId bank, Stream stream, long nowMillis) {
            loadPositions();
            reclaimLapsed(nowMillis);
            Lease lease = redeliver.peek();
            MessageLog.Slice slice;
            if (lease != null) {
                slice = log.read(bank, lease.from, lease.to, Integer.MAX_VALUE, 0);
                long logStart = logStartIfNothingRead(lease, slice);
                redeliver.poll();
                lease = handOut(lease, slice.next(), logStart);
                if (lease == null) {
                    return MessageLog.Slice.empty(slice.next());
                }
            } else {
                slice = log.read(bank, frontier, Long.MAX_VALUE, limits.messagesMax(), 0);
                if (slice.count() == 0) {
                    frontier = slice.next();
                    saveAcknowledged();
                    return slice;
                }
                lease = new Lease(frontier, slice.next());
                frontier = slice.next();
                outstanding.put(lease.from, lease);
            }
            lease.holder = stream;
            lease.expiresMillis = nowMillis + limits.leaseTimeout().toMillis();
            stream.lease = lease;
            return slice;
        }

        /**
         * Where the log starts, asked only when a re-read returned nothing of {@code lease} (it may have aged out), and
         * before any state changes: if the log cannot say, the lease stays where it was.
         */
        long logStartIfNothingRead(Lease lease, MessageLog.Slice slice) {
            return slice.next() <= lease.from ? log.start(bank) : Long.MIN_VALUE;
        }

        /**
         * The part of {@code lease} read up to {@code readTo}, which the caller hands out (null when nothing was
         * read); the unread rest goes first in line for redelivery. What the log no longer holds ({@code logStart}
         * past it: aged out) is gone, as a restart would skip it; the rest of the range is kept.
         */
        Lease handOut(Lease lease, long readTo, long logStart) {
            if (readTo >= lease.to) {
                return lease;
            }
            boolean nothingRead = readTo <= lease.from;
            long restFrom = Math.max(readTo, lease.from);
            if (nothingRead) {
                if (logStart >= lease.to) {
                    restFrom = lease.to;
                } else {
                    restFrom = Math.max(restFrom, logStart);
                }
            }
            Stream holder = lease.holder;
            if (holder != null) {
                holder.lease = null;
            }
            outstanding.remove(lease.from);
            if (restFrom == lease.to) {
                // The whole range aged out of the log: gone, as a restart would skip it.
                saveAcknowledged();
                return null;
            }
            Lease rest = new Lease(restFrom, lease.to);
            outstanding.put(rest.from, rest);
            redeliver.addFirst(rest);
            if (nothingRead) {
                return null;
            }
            Lease read = new Lease(lease.from, restFrom);
            read.holder = holder;
            read.expiresMillis = lease.expiresMillis;
            if (holder != null) {
                holder.lease = read;
            }
            outstanding.put(read.from, read);
            return read;
        }

        void closeIdle(long nowMillis) {
            for (Iterator<Stream> it = open.values().iterator(); it.hasNext(); ) {
                Stream stream = it.next();
                if (nowMillis - stream.lastPullMillis > limits.idleTimeout().toMillis() && stream.lastPullMillis > 0) {
                    release(stream);
                    it.remove();
                }
            }
        }

        /** A stream gone with a range unacknowledged: the range goes to the next pull. */
        void release(Stream stream) {
            if (stream.lease != null) {
                stream.lease.holder = null;
                redeliver.add(stream.lease);
                stream.lease = null;
            }
        }

        private void reclaimLapsed(long nowMillis) {
            for (Lease lease : outstanding.values()) {
                if (lease.holder != null && lease.expiresMillis < nowMillis) {
                    lease.holder.lease = null;
                    lease.holder = null;
                    redeliver.add(lease);
                }
            }
        }

        private void loadPositions() {
            int current = log.partitionOf(bank);
            if (current == partition) {
                return;
            }
            long start = log.start(bank);
            long saved = positions.acknowledged(bank, current).orElse(start);
            partition = current;
            acknowledged = Math.max(saved, start);
            frontier = acknowledged;
            outstanding.clear();
            redeliver.clear();
            open.values().forEach(stream -> stream.lease = null);
        }

        /** The durable position: the start of the oldest unacknowledged range, else the frontier. */
        private void saveAcknowledged() {
            long position = outstanding.isEmpty() ? frontier : outstanding.firstKey();
            if (position > acknowledged) {
                positions.acknowledge(bank, partition, position);
                acknowledged = position;
            }
        }
    }
}
