package io.pagora.local.measure;

import io.pagora.kernel.Check;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time of whole process trees, read from {@code /proc}: a component is its root process and every
 * descendant (PostgreSQL's backends, the embedded PostgreSQL under its Java launcher). Each process counts
 * {@code utime + stime + cutime + cstime}: the children a process already reaped are in its {@code cu/cs}
 * times, the living ones are walked, so a backend that exits during the window is still counted.
 */
public final class ProcessCpu {

    /** Clock ticks per second ({@code getconf CLK_TCK}); 100 on every Linux this runs on, passed in to be sure. */
    private final long ticksPerSecond;

    /** {@code name=pid,name=pid,…}: the components whose process trees are measured, in order. */
    public static Map<String, Long> components(String spec) {
        Map<String, Long> components = new LinkedHashMap<>();
        for (String part : spec.split(",")) {
            String[] nameAndPid = part.split("=");
            Check.that(nameAndPid.length == 2, "components are name=pid, got %s", part);
            components.put(nameAndPid[0], Long.parseLong(nameAndPid[1]));
        }
        return components;
    }

    public ProcessCpu(long ticksPerSecond) {
        Check.that(ticksPerSecond > 0, "clock ticks per second > 0");
        this.ticksPerSecond = ticksPerSecond;
    }

    /** CPU seconds of each named tree (absent processes count 0). */
    public Map<String, Double> seconds(Map<String, Long> rootPids) {
        Map<Long, List<Long>> children = new HashMap<>();
        Map<Long, Long> ticks = new HashMap<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path entry : entries) {
                long pid = Long.parseLong(entry.getFileName().toString());
                long[] stat = stat(pid);
                if (stat == null) {
                    continue; // exited between the listing and the read
                }
                children.computeIfAbsent(stat[0], p -> new ArrayList<>()).add(pid);
                ticks.put(pid, stat[1]);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc: " + e.getMessage(), e);
        }
        Map<String, Double> result = new LinkedHashMap<>();
        rootPids.forEach((name, root) -> result.put(name, treeTicks(root, children, ticks) / (double) ticksPerSecond));
        return result;
    }

    /** This JVM's own CPU seconds (the load generator). */
    public double ownSeconds() {
        long[] stat = stat(ProcessHandle.current().pid());
        Check.that(stat != null, "/proc/self/stat is readable");
        return stat[1] / (double) ticksPerSecond;
    }

    private static long treeTicks(long root, Map<Long, List<Long>> children, Map<Long, Long> ticks) {
        long total = 0;
        Deque<Long> open = new ArrayDeque<>();
        open.push(root);
        int visited = 0;
        while (!open.isEmpty()) {
            Check.that(++visited <= 1_000_000, "a process tree of at most a million processes");
            long pid = open.pop();
            total += ticks.getOrDefault(pid, 0L);
            for (long child : children.getOrDefault(pid, List.of())) {
                open.push(child);
            }
        }
        return total;
    }

    /** {ppid, utime+stime+cutime+cstime} of a process, or null if it is gone. */
    private static long[] stat(long pid) {
        String line;
        try {
            line = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        } catch (IOException e) {
            return null;
        }
        // The command name (field 2) is in parentheses and may hold spaces: fields are counted after its ')'.
        String[] fields = line.substring(line.lastIndexOf(')') + 2).trim().split(" ");
        // fields[0] is field 3 (state): ppid is field 4, utime..cstime are fields 14..17.
        long ppid = Long.parseLong(fields[1]);
        long cpu = Long.parseLong(fields[11])
                + Long.parseLong(fields[12])
                + Long.parseLong(fields[13])
                + Long.parseLong(fields[14]);
        return new long[] {ppid, cpu};
    }
}
