package io.pagora.local.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.local.tls.LocalTls;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.testing.TestCertificates;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bench's load generator sends every call as the payers' bank: the authorization matrix lets a bank pay only
 * from its own customers' accounts, so a call whose payers were at two banks would be refused in part. Proves, on
 * the bodies it builds (nothing is sent), that each call's payers are all at one bank, that every bank gets to
 * send, and that payees are any bank's.
 */
class LoadGeneratorTest {

    private static final List<BankId> BANKS = List.of(new BankId(10_001_111), new BankId(10_002_222));
    private static final Pattern PAYER = Pattern.compile("\"payerAccountId\":\"([0-9a-f]{32})\"");
    private static final Pattern PAYEE = Pattern.compile("\"payeeAccountId\":\"([0-9a-f]{32})\"");

    @TempDir
    Path tls;

    @Test
    void everyCallsPayersAreAtTheBankThatSendsIt() throws IOException {
        writeLauncherLayout();
        List<Id128> customers = new ArrayList<>();
        for (BankId bank : BANKS) {
            for (int number = 1; number <= 5; number++) {
                customers.add(ChartOfAccounts.customer(bank, number));
            }
        }
        Set<BankId> senders = new HashSet<>();
        Set<BankId> payeeBanks = new HashSet<>();
        try (LoadGenerator generator = new LoadGenerator(
                LoadGenerator.Mode.BULK,
                50,
                URI.create("https://127.0.0.1:1"),
                new LocalTls(tls),
                customers,
                tls.resolve("accepted.log"),
                16)) {
            for (int call = 0; call < 200; call++) {
                LoadGenerator.Body body = generator.nextBody();
                String json = new String(body.json(), StandardCharsets.US_ASCII);
                Set<BankId> payerBanks = banksOf(PAYER, json);
                assertThat(payerBanks).as("the payers of one call").hasSize(1);
                assertThat(BANKS.indexOf(payerBanks.iterator().next()))
                        .as("the sending bank")
                        .isEqualTo(body.bank());
                senders.addAll(payerBanks);
                payeeBanks.addAll(banksOf(PAYEE, json));
            }
        }
        assertThat(senders).containsExactlyInAnyOrderElementsOf(BANKS);
        assertThat(payeeBanks).containsExactlyInAnyOrderElementsOf(BANKS);
    }

    /** The files as infra/local/pagora certs lays them out, from the test-time CA. */
    private void writeLauncherLayout() throws IOException {
        TestCertificates authority = TestCertificates.shared();
        Path participants = Files.createDirectories(tls.resolve("participants"));
        Files.copy(authority.ca(), tls.resolve("ca.crt"));
        for (BankId bank : BANKS) {
            TestCertificates.Identity identity = authority.bank(bank.ispb());
            Files.copy(identity.certificate(), participants.resolve(identity.commonName() + ".crt"));
            Files.copy(identity.privateKey(), participants.resolve(identity.commonName() + ".key"));
        }
    }

    private static Set<BankId> banksOf(Pattern field, String json) {
        Set<BankId> banks = new HashSet<>();
        Matcher matcher = field.matcher(json);
        while (matcher.find()) {
            banks.add(ChartOfAccounts.bankOf(Id128.parse(matcher.group(1))).orElseThrow());
        }
        return banks;
    }
}
