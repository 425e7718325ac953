package io.pagora.service.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.pagora.kernel.Id128;
import io.pagora.ledger.port.AccountFlags;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.BatchTooLargeException;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.TransferResult;
import io.pagora.service.metrics.LatencyHistograms;
import io.pagora.testing.ledger.ReferenceLedger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Proves the ledger decorator measures what the dashboards read — every call timed per operation and
 * backend, the batch fill, one result per event by code — and changes nothing the ledger answers. It
 * runs on the reference ledger (the contract suite's oracle), a real implementation of the port.
 */
class MeteredLedgerTest {

    final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    final Ledger metered = new MeteredLedger(ReferenceLedger.onWallClock(), registry);

    @Test
    void timesEveryCallCountsEveryResultByCodeAndRecordsTheBatchFill() {
        Id128 a = Id128.of(1);
        Id128 b = Id128.of(2);
        List<AccountResult> opened = metered.createAccounts(List.of(
                NewAccount.of(a, 986, 1, AccountFlags.NONE),
                NewAccount.of(b, 986, 1, AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS)));
        assertThat(opened).containsExactly(AccountResult.OK, AccountResult.OK);
        assertThat(metered.createAccounts(List.of(NewAccount.of(a, 986, 1, AccountFlags.NONE))))
                .containsExactly(AccountResult.EXISTS);

        List<TransferResult> moved = metered.createTransfers(List.of(
                NewTransfer.posted(Id128.of(10), a, b, 100, 986, 1, Id128.ZERO),
                NewTransfer.posted(Id128.of(11), b, a, 1_000, 986, 1, Id128.ZERO),
                NewTransfer.posted(Id128.of(12), a, b, 5, 986, 1, Id128.ZERO)));
        assertThat(moved).containsExactly(TransferResult.OK, TransferResult.EXCEEDS_CREDITS, TransferResult.OK);
        assertThat(metered.lookupAccounts(List.of(a, b, Id128.of(99)))).hasSize(2);
        assertThat(metered.lookupTransfers(List.of(Id128.of(10)))).hasSize(1);

        assertThat(registry.get(MeteredLedger.REQUEST)
                        .tags("operation", "create_accounts", "backend", "reference")
                        .timer()
                        .count())
                .isEqualTo(2);
        assertThat(registry.get(MeteredLedger.REQUEST)
                        .tags("operation", "create_transfers")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(MeteredLedger.REQUEST)
                        .tags("operation", "lookup_accounts")
                        .timer()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(MeteredLedger.REQUEST_TRANSFERS)
                        .tags("operation", "create_transfers")
                        .summary()
                        .totalAmount())
                .isEqualTo(3);
        assertThat(count("create_accounts", "ok")).isEqualTo(2);
        assertThat(count("create_accounts", "exists")).isEqualTo(1);
        assertThat(count("create_transfers", "ok")).isEqualTo(2);
        assertThat(count("create_transfers", "exceeds_credits")).isEqualTo(1);
        assertThat(count("lookup_accounts", "found")).isEqualTo(2);
        assertThat(count("lookup_accounts", "not_found")).isEqualTo(1);
        assertThat(count("lookup_transfers", "found")).isEqualTo(1);
    }

    @Test
    void aRequestThatFailsAsAWholeIsTimedAndCountedThenRethrown() {
        List<Id128> tooMany = new ArrayList<>(Collections.nCopies(Ledger.BATCH_SIZE_MAX + 1, Id128.of(7)));
        List<NewAccount> accounts = tooMany.stream()
                .map(id -> NewAccount.of(id, 986, 1, AccountFlags.NONE))
                .toList();
        assertThatThrownBy(() -> metered.createAccounts(accounts)).isInstanceOf(BatchTooLargeException.class);
        assertThat(count("create_accounts", "batch_too_large")).isEqualTo(Ledger.BATCH_SIZE_MAX + 1);
        assertThat(registry.get(MeteredLedger.REQUEST)
                        .tags("operation", "create_accounts")
                        .timer()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void tagsAreBoundedAndLatenciesAreHistograms() {
        metered.lookupAccounts(List.of(Id128.of(42)));
        Set<String> tagKeys = registry.getMeters().stream()
                .flatMap(meter -> meter.getId().getTags().stream())
                .map(tag -> tag.getKey())
                .filter(key -> !key.equals("le")) // the simple registry's own histogram bucket gauges
                .collect(Collectors.toSet());
        assertThat(tagKeys).containsExactlyInAnyOrder("operation", "backend", "code");
        Meter.Id timer = registry.get(MeteredLedger.REQUEST)
                .tags("operation", "lookup_accounts")
                .timer()
                .getId();
        assertThat(registry.get(MeteredLedger.REQUEST)
                        .tags("operation", "lookup_accounts")
                        .timer()
                        .takeSnapshot()
                        .histogramCounts())
                .as("SLO buckets of %s", timer)
                .hasSizeGreaterThanOrEqualTo(LatencyHistograms.SLOS.length);
        assertThat(registry.get(MeteredLedger.REQUEST).timers())
                .as("one timer per operation")
                .hasSize(MeteredLedger.Operation.values().length)
                .hasSize(6);
    }

    private double count(String operation, String code) {
        return registry.get(MeteredLedger.RESULTS)
                .tags("operation", operation, "code", code)
                .counter()
                .count();
    }
}
