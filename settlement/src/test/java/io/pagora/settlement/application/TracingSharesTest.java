package io.pagora.settlement.application;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** How a trace shares what left an account among the payments that moved it out. */
class TracingSharesTest {

    @Test
    void outflowsThatAddUpToNoMoreThanTheRestAreFollowedWhole() {
        assertThat(TracingFunds.shares(900, new long[] {600, 300})).containsExactly(600, 300);
        assertThat(TracingFunds.shares(1_000, new long[] {600, 300})).containsExactly(600, 300);
        assertThat(TracingFunds.shares(5, new long[] {})).isEmpty();
    }

    @Test
    void moreOutflowsThanTheRestShareItInProportionToTheCentavo() {
        assertThat(TracingFunds.shares(500, new long[] {600, 300, 100})).containsExactly(300, 150, 50);
        long[] odd = TracingFunds.shares(100, new long[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 300});
        assertThat(Arrays.stream(odd).sum()).isEqualTo(100);
        assertThat(odd[11]).as("the large one's share, rounded down").isEqualTo(96);
        long[] thirds = TracingFunds.shares(100, new long[] {100, 100, 100});
        assertThat(thirds).containsExactly(34, 33, 33);
    }

    @Test
    void noShareExceedsItsOutflowAndHugeAmountsDoNotOverflow() {
        long[] shares = TracingFunds.shares(Long.MAX_VALUE - 1, new long[] {Long.MAX_VALUE, Long.MAX_VALUE});
        assertThat(shares[0] + shares[1]).isEqualTo(Long.MAX_VALUE - 1);
        assertThat(shares[0]).isBetween(0L, Long.MAX_VALUE);
    }
}
