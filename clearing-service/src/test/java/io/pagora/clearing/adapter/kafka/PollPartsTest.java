package io.pagora.clearing.adapter.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.clearing.application.ClearingRequest;
import io.pagora.clearing.application.participants.InstructionWindow;
import io.pagora.events.PaymentEventCodec;
import io.pagora.events.PaymentRequested;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.TimeOrderedIds;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A poll is cleared in parts by receiving bank: each part takes, for every bank, the first requests its room allows,
 * in the poll's order, and never a payer's request ahead of an earlier one of the same payer; together the parts clear
 * the poll once, nothing lost or repeated. The window here is a fake that gives each bank a fixed room per part.
 */
class PollPartsTest {

    static final BankId A = new BankId(22_222_222);
    static final BankId B = new BankId(33_333_333);
    final TimeOrderedIds ids = new TimeOrderedIds();

    @Test
    void eachBankIsAskedForItsOwnRequestsInTheOrderItFirstAppears() {
        List<ClearingRequest> poll = List.of(to(B, 1), to(A, 2), to(B, 3), to(B, 4), to(A, 5));

        assertThat(PaymentRequestsListener.wantedPerBank(poll)).containsExactly(Map.entry(B, 3), Map.entry(A, 2));
    }

    @Test
    void aPartTakesEachBanksRoomInOrderAndLeavesTheRestInOrder() {
        List<ClearingRequest> poll = List.of(to(A, 1), to(B, 2), to(A, 3), to(B, 4), to(A, 5), to(B, 6));
        List<ClearingRequest> left = new ArrayList<>();

        List<ClearingRequest> part = PaymentRequestsListener.nextPart(poll, Map.of(A, 2), left);

        assertThat(part).containsExactly(poll.get(0), poll.get(2));
        assertThat(left).containsExactly(poll.get(1), poll.get(3), poll.get(4), poll.get(5));
    }

    @Test
    void aPayersRequestWaitsBehindItsEarlierOneToABankWithoutRoom() {
        List<ClearingRequest> poll = List.of(to(A, 1), to(B, 1), to(B, 2));
        List<ClearingRequest> left = new ArrayList<>();

        List<ClearingRequest> part = PaymentRequestsListener.nextPart(poll, Map.of(B, 5), left);

        assertThat(part).as("payer 2's, not payer 1's second").containsExactly(poll.get(2));
        assertThat(left).containsExactly(poll.get(0), poll.get(1));
    }

    @Test
    void whenEveryBankWithRoomWaitsBehindItsPayerThePartWaitsForTheFirstRequestsBank() throws InterruptedException {
        List<ClearingRequest> poll = List.of(to(A, 1), to(B, 1));
        List<Map<BankId, Integer>> asked = new ArrayList<>();
        InstructionWindow.Poll window = wanted -> {
            asked.add(Map.copyOf(wanted));
            return wanted.containsKey(A) && wanted.size() == 1 ? Map.of(A, 1) : Map.of(B, 1); // A full at first
        };
        List<List<ClearingRequest>> parts = new ArrayList<>();

        PaymentRequestsListener.clearInParts(poll, window, parts::add);

        assertThat(asked.get(1)).as("then A alone").isEqualTo(Map.of(A, 1));
        assertThat(parts).containsExactly(List.of(poll.get(0)), List.of(poll.get(1)));
    }

    @Test
    void thePartsTogetherClearThePollOnceKeepingEachPayersOrder() throws InterruptedException {
        Random random = new Random(43);
        for (int round = 0; round < 200; round++) {
            List<ClearingRequest> poll = new ArrayList<>();
            for (int i = 0, size = 1 + random.nextInt(60); i < size; i++) {
                poll.add(to(random.nextBoolean() ? A : B, 1 + random.nextInt(4)));
            }
            Map<BankId, Integer> rooms = Map.of(A, random.nextInt(4), B, random.nextInt(4));
            InstructionWindow.Poll window = wanted -> {
                Map<BankId, Integer> granted = new HashMap<>();
                wanted.forEach((bank, count) -> {
                    if (rooms.get(bank) > 0) {
                        granted.put(bank, Math.min(count, rooms.get(bank)));
                    }
                });
                // no bank with room: the poll's bound gives each one request
                if (granted.isEmpty()) {
                    wanted.keySet().forEach(bank -> granted.put(bank, 1));
                }
                return granted;
            };
            List<ClearingRequest> cleared = new ArrayList<>();
            int parts = PaymentRequestsListener.clearInParts(poll, window, cleared::addAll);

            assertThat(parts).isBetween(1, poll.size());
            assertThat(cleared).containsExactlyInAnyOrderElementsOf(poll);
            for (ClearingRequest request : poll) {
                List<ClearingRequest> samePayer = poll.stream()
                        .filter(other ->
                                other.payment().payer().equals(request.payment().payer()))
                        .toList();
                assertThat(cleared.stream().filter(samePayer::contains).toList())
                        .as("a payer's requests in the poll's order")
                        .containsExactlyElementsOf(samePayer);
            }
        }
    }

    @Test
    void withoutAWindowThePollIsOnePart() throws InterruptedException {
        List<ClearingRequest> poll = List.of(to(A, 1), to(B, 2));
        List<List<ClearingRequest>> parts = new ArrayList<>();

        assertThat(PaymentRequestsListener.clearInParts(poll, null, parts::add)).isEqualTo(1);
        assertThat(parts).containsExactly(poll);
    }

    private ClearingRequest to(BankId payeeBank, int payer) {
        PaymentRequested event = new PaymentRequested(
                ids.nextPaymentId().toString(),
                ChartOfAccounts.customer(new BankId(11_111_111), payer).toString(),
                ChartOfAccounts.customer(payeeBank, 9).toString(),
                100,
                "BRL",
                "test",
                "E2E",
                Instant.now());
        return ((ClearingRequest.Parsed.Valid) ClearingRequest.parse(PaymentEventCodec.encode(event))).request();
    }
}
