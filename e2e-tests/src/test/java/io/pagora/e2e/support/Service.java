package io.pagora.e2e.support;

import io.pagora.kernel.Check;
import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.domain.access.Caller;
import io.pagora.testing.Http;
import io.pagora.testing.TestCertificates;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A participant-facing service (payment-api or reporting-service) of the scenario, reached over mutual TLS
 * at {@code https://127.0.0.1:<port>}, and its clients by who calls: every request of an e2e test says who
 * sends it. A bank presents its own certificate from the test CA ({@link TestCertificates#shared()}, the CA
 * the services trust), the operator its own; an anonymous client trusts the server and names nobody.
 */
public final class Service {

    private final int port;
    /** One client per caller (each holds its own TLS context): a handful of banks and the operator per scenario. */
    private final Map<Caller, Http> clients = new ConcurrentHashMap<>();

    Service(int port) {
        Check.that(port > 0, "a started service listens on a port: %d", port);
        this.port = port;
    }

    /** The service's address, as a client (or another service) reaches it. */
    public String base() {
        return "https://127.0.0.1:" + port;
    }

    /** A client presenting {@code caller}'s certificate. */
    public Http as(Caller caller) {
        return clients.computeIfAbsent(caller, who -> Http.as(identity(who), port));
    }

    /** The switch operator: registers banks, funds reserves, reads statistics, positions and metrics. */
    public Http asOperator() {
        return as(Caller.OPERATOR);
    }

    public Http asBank(int ispb) {
        return as(Caller.bank(ispb));
    }

    /** The bank that holds {@code account} (an account id encodes its bank): the one that acts for its customer. */
    public Http asBankOf(Id128 account) {
        return as(new Caller.Bank(bankOf(account)));
    }

    /** A client over TLS without a certificate. */
    public Http anonymous() {
        return Http.anonymous(port);
    }

    public static BankId bankOf(Id128 account) {
        return ChartOfAccounts.bankOf(account)
                .orElseThrow(() ->
                        new IllegalArgumentException("account " + account + " names no bank: no bank can act for it"));
    }

    private static TestCertificates.Identity identity(Caller caller) {
        TestCertificates certificates = TestCertificates.shared();
        return switch (caller) {
            case Caller.Bank bank -> certificates.bank(bank.bank().ispb());
            case Caller.Operator ignored -> certificates.operator();
        };
    }
}
