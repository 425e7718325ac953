package io.pagora.settlement.domain.access;

import io.pagora.settlement.domain.BankId;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who is calling the switch, as its adapter authenticated it (the client certificate's common name):
 * a participant bank, named by its ISPB, or the switch's operator. There is no anonymous caller: a
 * request without an identity never reaches the application.
 */
public sealed interface Caller {

    /** A participant bank: it acts for its own customers and its own reserve only. */
    record Bank(BankId bank) implements Caller {
        @Override
        public String principalName() {
            return BANK_PREFIX + bank;
        }
    }

    /** The switch operator: registers banks, funds reserves, reads positions and statistics; moves no customer's money. */
    record Operator() implements Caller {
        @Override
        public String principalName() {
            return OPERATOR_NAME;
        }
    }

    Operator OPERATOR = new Operator();

    String BANK_PREFIX = "ispb-";
    String OPERATOR_NAME = "operator";

    /** The name a certificate carries for this caller: {@code ispb-} and 8 digits, or {@code operator}. */
    String principalName();

    static Caller bank(int ispb) {
        return new Bank(new BankId(ispb));
    }

    /** The caller a principal name names, or empty: nothing else is a caller (deny by default). */
    static Optional<Caller> ofPrincipalName(String name) {
        if (name == null) {
            return Optional.empty();
        }
        if (name.equals(OPERATOR_NAME)) {
            return Optional.of(OPERATOR);
        }
        Matcher bank = BankName.PATTERN.matcher(name);
        return bank.matches() ? Optional.of(bank(Integer.parseInt(bank.group(1)))) : Optional.empty();
    }

    /** Exactly eight digits, as {@link BankId#toString()} writes them, so a bank has one name only. */
    final class BankName {
        static final Pattern PATTERN = Pattern.compile(Pattern.quote(BANK_PREFIX) + "([0-9]{8})");

        private BankName() {}
    }
}
