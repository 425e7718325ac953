package io.pagora.local.launcher.commands;

import io.pagora.local.launcher.Supervisor;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which TigerBeetle replica is the primary now. In Viewstamped Replication the primary of view {@code v} is replica
 * {@code v mod replica count}; the view is read from the replicas' own logs, where each says so when it enters one
 * ({@code transition_to_normal_from_view_change_status: view=1..2 primary}, or after a restart
 * {@code transition_to_normal_from_recovering_status: view=2 backup}): the highest view logged since each replica's
 * last start is the current one. A 0.16 server says it nowhere else (there is no status request). Only the lines after
 * the last start count: the launcher appends every start to the same log, and an earlier platform's views are not
 * this one's.
 */
public final class TigerBeetleRoles {

    private static final Pattern VIEW = Pattern.compile("transition_to_\\w+: view=(?:\\d+\\.\\.)?(\\d+)");

    private TigerBeetleRoles() {}

    /** @return the name (of {@code names}, in replica order beside {@code logs}) of the current view's primary */
    public static String primary(List<Path> logs, List<String> names) {
        long view = 0;
        for (Path log : logs) {
            List<String> lines = Chaos.readLines(log);
            int lastStart = 0;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith(Supervisor.START_MARKER)) {
                    lastStart = i;
                }
            }
            for (String line : lines.subList(lastStart, lines.size())) {
                Matcher matcher = VIEW.matcher(line);
                if (matcher.find()) {
                    view = Math.max(view, Long.parseLong(matcher.group(1)));
                }
            }
        }
        return names.get((int) (view % names.size()));
    }
}
