package io.pagora.local.runfiles;

import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import io.pagora.settlement.invariants.Movement;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Every ledger account the demo created and how much it funded each one with, as the seeding step
 * wrote it (one line per successful call, tab-separated; {@code #} starts a comment):
 *
 * <pre>
 *   bank      ISPB          RESERVE_FUNDED_CENTAVOS
 *   customer  ACCOUNT_ID    FUNDED_CENTAVOS          (ACCOUNT_ID: the 32-hex-digit id payment-api returned)
 * </pre>
 *
 * A bank or customer listed twice has its fundings added up. The central bank and each bank's reserve
 * and transit account follow from the chart of accounts.
 */
public record DemoAccounts(Map<BankId, Long> reserveFundings, Map<Id128, Long> customerFundings) {

    public static DemoAccounts read(Path file) throws IOException {
        Map<BankId, Long> banks = new LinkedHashMap<>();
        Map<Id128, Long> customers = new LinkedHashMap<>();
        int lineNumber = 0;
        for (String line : Files.readAllLines(file)) {
            lineNumber++;
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String[] fields = trimmed.split("\\s+");
            if (fields.length != 3) {
                throw new IllegalArgumentException(file + ":" + lineNumber + ": expected 3 fields: " + line);
            }
            long amount = Long.parseLong(fields[2]);
            switch (fields[0]) {
                case "bank" -> banks.merge(new BankId(Integer.parseInt(fields[1])), amount, Math::addExact);
                case "customer" -> {
                    Id128 id = Id128.parse(fields[1]);
                    if (!ChartOfAccounts.isCustomer(id)) {
                        throw new IllegalArgumentException(
                                file + ":" + lineNumber + ": not a customer account id: " + id);
                    }
                    customers.merge(id, amount, Math::addExact);
                }
                default -> throw new IllegalArgumentException(file + ":" + lineNumber + ": bank or customer: " + line);
            }
        }
        return new DemoAccounts(banks, customers);
    }

    /** Central bank, then each bank's reserve and transit, then the customers. */
    public List<Id128> allAccountIds() {
        List<Id128> ids = new ArrayList<>();
        ids.add(ChartOfAccounts.centralBank());
        for (BankId bank : reserveFundings.keySet()) {
            ids.add(ChartOfAccounts.reserve(bank));
            ids.add(ChartOfAccounts.transit(bank));
        }
        ids.addAll(customerFundings.keySet());
        return ids;
    }

    /** Every funding as a movement: the central bank issued each reserve's, a bank's transit paid its customers'. */
    public List<Movement> fundings() {
        List<Movement> fundings = new ArrayList<>();
        reserveFundings.forEach((bank, amount) ->
                fundings.add(new Movement(ChartOfAccounts.centralBank(), ChartOfAccounts.reserve(bank), amount)));
        customerFundings.forEach((customer, amount) -> fundings.add(new Movement(
                ChartOfAccounts.transit(ChartOfAccounts.bankOf(customer).orElseThrow()), customer, amount)));
        return fundings;
    }
}
