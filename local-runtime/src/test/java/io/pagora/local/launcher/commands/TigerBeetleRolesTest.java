package io.pagora.local.launcher.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The primary is the current view's (view mod replicas), the view read from the replicas' logs. */
class TigerBeetleRolesTest {

    static final List<String> NAMES = List.of("tigerbeetle", "tigerbeetle-2", "tigerbeetle-3");

    @TempDir
    Path logs;

    @Test
    void before_any_view_change_the_primary_is_replica_0() throws Exception {
        List<Path> files = write("info(clock): 0: synchronized", "", "");

        assertThat(TigerBeetleRoles.primary(files, NAMES)).isEqualTo("tigerbeetle");
    }

    @Test
    void after_view_changes_the_highest_logged_view_names_the_primary() throws Exception {
        // As logged by 0.16.78 when replica 0 was killed (view 0 -> 1), then replica 1 (view 1 -> 2).
        List<Path> files = write(
                "2026-11-27 16:23:12.495Z info(replica): 0n: transition_to_normal_from_view_change_status: view=1..1 backup",
                "2026-11-27 16:23:12.493Z info(replica): 1N: transition_to_normal_from_view_change_status: view=1..1 primary",
                "2026-11-27 16:25:02.070Z info(replica): 2n: transition_to_view_change_status: view=1..2 status=normal..view_change\\n"
                        + "2026-11-27 16:25:02.524Z info(replica): 2N: transition_to_normal_from_view_change_status: view=2..2 primary");

        assertThat(TigerBeetleRoles.primary(files, NAMES)).isEqualTo("tigerbeetle-3");
    }

    @Test
    void only_the_views_since_each_replica_last_started_count_and_a_restart_says_its_view_too() throws Exception {
        // An earlier platform reached view 5 (its primary: replica 2); this one started fresh and is in view 1. Replica
        // 0
        // was killed and restarted: it says its view on recovering, without the "a..b" of a view change.
        String earlier = "info(replica): 2N: transition_to_normal_from_view_change_status: view=4..5 primary\n";
        List<Path> files = write(
                earlier + "==== 2026-11-27 16:45:00 starting: tigerbeetle start\n"
                        + "info(replica): 0n: transition_to_normal_from_view_change_status: view=0..1 backup\n"
                        + "==== 2026-11-27 16:50:00 starting: tigerbeetle start\n"
                        + "info(replica): 0n: transition_to_normal_from_recovering_status: view=1 backup",
                earlier + "==== 2026-11-27 16:45:00 starting: tigerbeetle start\n",
                earlier + "==== 2026-11-27 16:45:00 starting: tigerbeetle start\n"
                        + "info(replica): 2n: transition_to_normal_from_view_change_status: view=0..1 backup");

        assertThat(TigerBeetleRoles.primary(files, NAMES)).isEqualTo("tigerbeetle-2");
    }

    private List<Path> write(String... contents) throws Exception {
        for (int i = 0; i < contents.length; i++) {
            Files.writeString(logs.resolve(NAMES.get(i) + ".log"), contents[i].replace("\\n", "\n"));
        }
        return NAMES.stream().map(name -> logs.resolve(name + ".log")).toList();
    }
}
