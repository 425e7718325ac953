package io.pagora.settlement.domain.med;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.PaymentId;
import java.util.List;

/**
 * Where a reported payment's money went (MED 2.0's tracing, docs/med.md): the first receiving account (position 0,
 * hop 0), then each account the money moved on to, in the order the trace reached them, with how much of the
 * payment was traced to it and how much is held there.
 *
 * @param cutTimestamp the ledger timestamp the trace looked up to: transfers after it are not followed, so the
 *     same cut rebuilds the same trace
 * @param truncated whether a limit stopped the trace with money still to follow
 */
public record FundsTrace(
        PaymentId payment, long amountCentavos, long cutTimestamp, List<Node> nodes, boolean truncated) {

    /**
     * One account on the trace.
     *
     * @param parent the position the money came from (-1 for the first receiving account)
     * @param via the payment that moved it here (the reported payment itself for position 0)
     * @param arrivedAt the ledger timestamp it arrived: what left the account after it is followed
     */
    public record Node(
            int position,
            int hop,
            Id128 account,
            long tracedCentavos,
            long heldCentavos,
            int parent,
            PaymentId via,
            long arrivedAt) {

        public Node {
            Check.that(
                    tracedCentavos >= 0 && heldCentavos >= 0 && heldCentavos <= tracedCentavos,
                    "held %d of %d traced",
                    heldCentavos,
                    tracedCentavos);
        }

        /** The same account of the trace, holding {@code centavos}. */
        public Node holding(long centavos) {
            return new Node(position, hop, account, tracedCentavos, centavos, parent, via, arrivedAt);
        }
    }

    public FundsTrace {
        Check.that(!nodes.isEmpty() && nodes.size() <= HoldIds.POSITIONS_MAX, "1..64 nodes: %d", nodes.size());
        for (int i = 0; i < nodes.size(); i++) {
            Check.that(
                    nodes.get(i).position() == i,
                    "node %d at position %d",
                    nodes.get(i).position(),
                    i);
        }
        nodes = List.copyOf(nodes);
    }

    public long heldCentavos() {
        return nodes.stream().mapToLong(Node::heldCentavos).sum();
    }

    public int hops() {
        return nodes.getLast().hop();
    }
}
