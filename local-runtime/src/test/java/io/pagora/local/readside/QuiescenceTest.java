package io.pagora.local.readside;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class QuiescenceTest {

    private static final Duration QUIET = Duration.ofSeconds(5);
    private static final Duration WAIT = Duration.ofSeconds(60);

    /** Looks scripted one per look (the last one repeats), on a clock that moves only when the wait sleeps. */
    private static final class Script implements Quiescence.Looks, Quiescence.Time {
        private final List<long[]> readModel = new ArrayList<>();
        private final List<Long> unprojected = new ArrayList<>();
        private int looks;
        private int lagLooks;
        private long nanos;

        Script then(long payments, long open, long notProjected) {
            readModel.add(new long[] {payments, open});
            unprojected.add(notProjected);
            return this;
        }

        @Override
        public long[] readModel() {
            return readModel.get(Math.min(looks++, readModel.size() - 1));
        }

        @Override
        public long unprojected() {
            lagLooks++;
            return unprojected.get(Math.min(looks - 1, unprojected.size() - 1));
        }

        @Override
        public long nanos() {
            return nanos;
        }

        @Override
        public void sleep(Duration pause) {
            nanos += pause.toNanos();
        }
    }

    @Test
    void aPlatformQuietFromTheFirstLookIsQuietOnlyOnceTheQuietPeriodPassed() throws Exception {
        Script script = new Script().then(100, 0, 0);

        Quiescence.Result result = Quiescence.await(script, QUIET, WAIT, script);

        assertThat(result.quiet()).isTrue();
        assertThat(result.waited()).isEqualTo(QUIET);
        assertThat(script.looks)
                .as("a look every 500 ms over 5 s, both ends included")
                .isEqualTo(11);
    }

    /**
     * The false alarm this wait exists for: the load generator's payments are all final, then a bank asks a return of
     * one it was paid. Judged on the first look, the return would show as not final.
     */
    @Test
    void aPaymentArrivingDuringTheQuietPeriodStartsItAgain() throws Exception {
        Script script =
                new Script().then(100, 0, 0).then(100, 0, 0).then(100, 0, 0).then(101, 0, 0);

        Quiescence.Result result = Quiescence.await(script, QUIET, WAIT, script);

        assertThat(result.quiet()).isTrue();
        assertThat(result.last().payments()).isEqualTo(101);
        assertThat(result.waited()).as("quiet from the fourth look (1.5 s) on").isEqualTo(Duration.ofMillis(6_500));
    }

    @Test
    void aPaymentStillAcceptedOrARecordNotProjectedKeepsItWaitingAndKafkaIsAskedOnlyOnceNothingIsOpen()
            throws Exception {
        Script script =
                new Script().then(101, 1, 0).then(101, 1, 0).then(101, 0, 2).then(101, 0, 0);

        Quiescence.Result result = Quiescence.await(script, QUIET, WAIT, script);

        assertThat(result.quiet()).isTrue();
        assertThat(result.waited()).isEqualTo(Duration.ofMillis(1_500).plus(QUIET));
        assertThat(script.lagLooks).as("no Kafka look while a payment is open").isEqualTo(script.looks - 2);
    }

    @Test
    void aPlatformThatNeverFallsQuietEndsTheWaitAtItsBoundAndSaysWhy() throws Exception {
        Script script = new Script().then(100, 3, 0);

        Quiescence.Result result = Quiescence.await(script, QUIET, WAIT, script);

        assertThat(result.quiet()).isFalse();
        assertThat(result.waited()).isEqualTo(WAIT);
        assertThat(result.describe())
                .isEqualTo("not quiet after 60000 ms: 100 payments in the read model, 3 not final,"
                        + " (not looked at) records not projected");
    }

    @Test
    void aLookThatFailsIsNotQuietAndTheWaitGoesOn() throws Exception {
        Script script = new Script().then(100, 0, 0);
        int[] failures = {2};
        Quiescence.Looks failingTwice = new Quiescence.Looks() {
            @Override
            public long[] readModel() throws java.sql.SQLException {
                if (failures[0]-- > 0) {
                    throw new java.sql.SQLException("the database system is starting up");
                }
                return script.readModel();
            }

            @Override
            public long unprojected() {
                return script.unprojected();
            }
        };

        Quiescence.Result result = Quiescence.await(failingTwice, QUIET, WAIT, script);

        assertThat(result.quiet()).isTrue();
        assertThat(result.waited()).as("quiet from the third look (1 s) on").isEqualTo(Duration.ofSeconds(6));
    }

    @Test
    void aWaitWhoseLooksAllFailEndsAtItsBoundAndSaysWhy() throws Exception {
        Script script = new Script();
        Quiescence.Looks down = new Quiescence.Looks() {
            @Override
            public long[] readModel() throws java.sql.SQLException {
                throw new java.sql.SQLException("Connection refused");
            }

            @Override
            public long unprojected() {
                return 0;
            }
        };

        Quiescence.Result result = Quiescence.await(down, QUIET, WAIT, script);

        assertThat(result.quiet()).isFalse();
        assertThat(result.describe())
                .isEqualTo("not quiet after 60000 ms: the last look failed (SQLException: " + "Connection refused)");
    }

    @Test
    void aQuietPeriodLongerThanTheWaitIsRefused() {
        Script script = new Script().then(0, 0, 0);

        assertThatThrownBy(() -> Quiescence.await(script, WAIT.plusSeconds(1), WAIT, script))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("a quiet period in [0, wait]");
    }

    @Test
    void whatIsLeftOfADeadlineIsNeverLessThanOneQuietPeriod() {
        assertThat(Quiescence.atLeastQuiet(Duration.ofSeconds(-3))).isEqualTo(Quiescence.QUIET_DEFAULT);
        assertThat(Quiescence.atLeastQuiet(Duration.ofSeconds(90))).isEqualTo(Duration.ofSeconds(90));
    }
}
