package io.pagora.local.platform;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which TigerBeetle replica is the primary now. In Viewstamped Replication the primary of view {@code v} is replica
 * {@code v mod replica count}; the view is read from the replicas' own logs, where each says so when it enters one
 * ({@code transition_to_normal_from_view_change_status: view=1..1 primary}): the highest logged view is the current
 * one. A 0.16 server says it nowhere else (there is no status request).
 */
final class TigerBeetleRoles {

    private static final Pattern VIEW = Pattern.compile("transition_to_\\w+: view=\\d+\\.\\.(\\d+)");

    private TigerBeetleRoles() {}

    /** @return the name (of {@code names}, in replica order beside {@code logs}) of the current view's primary */
    static String primary(List<Path> logs, List<String> names) {
        long view = 0;
        for (Path log : logs) {
            for (String line : Chaos.readLines(log)) {
                Matcher matcher = VIEW.matcher(line);
                if (matcher.find()) {
                    view = Math.max(view, Long.parseLong(matcher.group(1)));
                }
            }
        }
        return names.get((int) (view % names.size()));
    }
}
