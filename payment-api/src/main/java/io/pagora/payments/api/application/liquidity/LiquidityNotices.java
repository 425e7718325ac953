package io.pagora.payments.api.application.liquidity;

import java.util.List;

/** Delivers each watch's last crossing on its bank's stream; returns once delivered, or throws. */
public interface LiquidityNotices {

    void tell(List<WatchedReserve> crossed);
}
