package io.pagora.payments.api.adapter.kafka;

import io.pagora.events.participant.CautionaryHold;
import io.pagora.events.participant.InfractionReportNotice;
import io.pagora.events.participant.ParticipantMessage;
import io.pagora.payments.api.application.med.ReportNotices;
import io.pagora.payments.api.domain.med.InfractionReport;
import io.pagora.payments.api.domain.med.ReportRefund;
import io.pagora.payments.api.domain.med.ReportStatus;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.med.FundsTrace;
import io.pagora.settlement.domain.med.RefundOutcome;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A report's notices on its banks' streams: filed (OPEN), to the payee's bank, with a {@link CautionaryHold} HELD to
 * the bank of every account holding some of the money; decided or escalated, to both banks, and a rejected report's
 * holds RELEASED to their banks; refunded, to both banks, each hold that paid a share REFUNDED and each that paid none
 * RELEASED to its bank (a share the ledger refused keeps its hold: nothing new to tell).
 */
public final class KafkaReportNotices implements ReportNotices {

    private final KafkaBankStreams streams;
    private final Clock clock;

    public KafkaReportNotices(KafkaBankStreams streams, Clock clock) {
        this.streams = streams;
        this.clock = clock;
    }

    @Override
    public void tell(InfractionReport report) {
        Map<String, List<ParticipantMessage>> byBank = new LinkedHashMap<>();
        Instant at = report.decidedAt() == null ? report.filedAt() : report.decidedAt();
        if (report.status() != ReportStatus.OPEN) {
            add(byBank, report.payerBank(), notice(report, "PAYER", at));
        }
        add(byBank, report.payeeBank(), notice(report, "PAYEE", at));
        String told = switch (report.status()) {
            case OPEN -> "HELD";
            case REJECTED, REFUNDED -> "RELEASED";
            default -> null;
        };
        if (told != null) {
            Map<Integer, Long> refunded = report.status() == ReportStatus.REFUNDED
                    ? ReportRefund.shares(report.trace(), report.refund().centavos())
                    : Map.of();
            for (FundsTrace.Node node : report.trace().nodes()) {
                if (node.heldCentavos() == 0) {
                    continue;
                }
                RefundOutcome outcome = report.status() == ReportStatus.REFUNDED
                        ? report.refund().outcomes().get(node.position())
                        : null;
                if (outcome != null && outcome.refused()) {
                    continue; // the ledger refused to pay this share: its hold stands, as its HELD notice said
                }
                boolean paid = outcome == RefundOutcome.RESERVED;
                String holdStatus = paid ? "REFUNDED" : told;
                long centavos = paid ? refunded.get(node.position()) : node.heldCentavos();
                BankId bank = ChartOfAccounts.bankOf(node.account()).orElseThrow();
                add(
                        byBank,
                        bank,
                        new CautionaryHold(
                                CautionaryHold.idOf(report.id().toString(), node.position(), holdStatus),
                                report.payment().toString(),
                                report.id().toString(),
                                node.account().toString(),
                                node.hop(),
                                centavos,
                                holdStatus,
                                report.holdUntil(),
                                at == null ? clock.instant() : at));
            }
        }
        streams.send(byBank, "infraction report notices");
    }

    private static InfractionReportNotice notice(InfractionReport report, String role, Instant at) {
        return new InfractionReportNotice(
                InfractionReportNotice.idOf(
                        report.id().toString(), report.status().name(), role),
                report.payment().toString(),
                report.id().toString(),
                role,
                report.status().name(),
                report.reason().name(),
                report.amountCentavos(),
                report.heldCentavos(),
                report.analyseBy(),
                report.decisionReason(),
                at);
    }

    private static void add(Map<String, List<ParticipantMessage>> byBank, BankId bank, ParticipantMessage message) {
        byBank.computeIfAbsent(bank.toString(), ignored -> new ArrayList<>()).add(message);
    }
}
