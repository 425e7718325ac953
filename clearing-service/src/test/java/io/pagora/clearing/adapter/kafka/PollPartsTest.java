package io.pagora.clearing.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.application.ClearingRequest;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentRequested;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.TimeOrderedIds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A poll is split by receiving bank: each part takes, for every bank, the first requests its room allows, in the poll's
 * order; the others stay for the next part in the same order, so nothing is lost, repeated or reordered within a bank.
 */
class PollPartsTest {

    static final BankId PAYER_BANK = new BankId(11_111_111);
    static final BankId A = new BankId(22_222_222);
    static final BankId B = new BankId(33_333_333);
    final TimeOrderedIds ids = new TimeOrderedIds();

    @Test
    void eachBankIsAskedForItsOwnRequestsInTheOrderItFirstAppears() {
        List<ClearingRequest> poll = List.of(to(B), to(A), to(B), to(B), to(A));

        assertThat(PaymentRequestsListener.wantedPerBank(poll)).containsExactly(Map.entry(B, 3), Map.entry(A, 2));
    }

    @Test
    void aPartTakesEachBanksRoomInOrderAndLeavesTheRestInOrder() {
        List<ClearingRequest> poll = List.of(to(A), to(B), to(A), to(B), to(A), to(B));
        List<ClearingRequest> left = new ArrayList<>();

        List<ClearingRequest> part = PaymentRequestsListener.nextPart(poll, Map.of(A, 2), left);

        assertThat(part).containsExactly(poll.get(0), poll.get(2));
        assertThat(left).containsExactly(poll.get(1), poll.get(3), poll.get(4), poll.get(5));
    }

    @Test
    void partsTogetherHoldThePollOnce() {
        List<ClearingRequest> poll = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            poll.add(to(i % 3 == 0 ? A : B));
        }
        List<ClearingRequest> cleared = new ArrayList<>();
        List<ClearingRequest> remaining = poll;
        for (int parts = 0; !remaining.isEmpty(); parts++) {
            assertThat(parts).as("bounded").isLessThan(poll.size());
            List<ClearingRequest> left = new ArrayList<>();
            cleared.addAll(PaymentRequestsListener.nextPart(remaining, Map.of(A, 2, B, 5), left));
            remaining = left;
        }
        assertThat(cleared).containsExactlyInAnyOrderElementsOf(poll);
        assertThat(cleared.stream().filter(r -> r.payment().payeeBank().equals(A)))
                .as("a bank's requests keep the poll's order")
                .containsExactlyElementsOf(poll.stream()
                        .filter(r -> r.payment().payeeBank().equals(A))
                        .toList());
    }

    private ClearingRequest to(BankId payeeBank) {
        PaymentRequested event = new PaymentRequested(
                ids.nextPaymentId().toString(),
                ChartOfAccounts.customer(PAYER_BANK, 7).toString(),
                ChartOfAccounts.customer(payeeBank, 9).toString(),
                100,
                "BRL",
                "test",
                "E2E",
                Instant.now());
        return ((ClearingRequest.Parsed.Valid) ClearingRequest.parse(PaymentEventCodec.encode(event))).request();
    }
}
