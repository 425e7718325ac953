package io.pagora.payments.api.application.directory;

import io.pagora.payments.api.domain.directory.Claim;
import java.util.List;

/**
 * Tells the banks of a claim on their streams: the donor when it is opened, both when it is resolved. At least once: a
 * notice has an id of its own, so a bank drops a duplicate; returns when the broker holds them.
 */
public interface ClaimNotices {

    void tell(List<Claim> claims);
}
