package io.pagora.settlement.domain.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.settlement.domain.AccountKind;
import io.pagora.settlement.domain.BankId;
import io.pagora.settlement.domain.ChartOfAccounts;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The authorization rules as a specification: who may act on what, for every kind of caller and object,
 * and the names a certificate may carry. Deny by default: whatever no rule grants is refused.
 */
class AccessRulesTest {

    private static final BankId A = new BankId(11_111_111);
    private static final BankId B = new BankId(22_222_222);
    private static final Caller BANK_A = new Caller.Bank(A);
    private static final Caller BANK_B = new Caller.Bank(B);
    private static final Caller OPERATOR = Caller.OPERATOR;
    private static final Id128 CUSTOMER_OF_A = ChartOfAccounts.customer(A, 7);
    private static final Id128 CUSTOMER_OF_B = ChartOfAccounts.customer(B, 7);

    @Test
    void only_the_operator_may_use_the_switch_functions() {
        assertThat(AccessRules.operatorOnly(OPERATOR)).isEmpty();
        assertThat(AccessRules.operatorOnly(BANK_A)).contains(AccessRefusal.OPERATOR_ONLY);
    }

    @Test
    void a_bank_acts_for_itself_only_and_the_operator_acts_for_no_bank() {
        assertThat(AccessRules.bankItself(BANK_A, A)).isEmpty();
        assertThat(AccessRules.bankItself(BANK_B, A)).contains(AccessRefusal.FOREIGN_BANK);
        assertThat(AccessRules.bankItself(OPERATOR, A)).contains(AccessRefusal.FOREIGN_BANK);
    }

    @Test
    void a_bank_s_positions_are_that_bank_s_and_the_operator_s() {
        assertThat(AccessRules.bankOrOperator(BANK_A, A)).isEmpty();
        assertThat(AccessRules.bankOrOperator(OPERATOR, A)).isEmpty();
        assertThat(AccessRules.bankOrOperator(BANK_B, A)).contains(AccessRefusal.FOREIGN_BANK);
    }

    @Test
    void an_account_is_its_bank_s_whatever_its_kind_and_the_central_bank_is_the_operator_s() {
        assertThat(AccessRules.accountHolder(BANK_A, CUSTOMER_OF_A)).isEmpty();
        assertThat(AccessRules.accountHolder(BANK_A, ChartOfAccounts.reserve(A)))
                .isEmpty();
        assertThat(AccessRules.accountHolder(BANK_A, ChartOfAccounts.transit(A)))
                .isEmpty();
        assertThat(AccessRules.accountHolder(BANK_B, CUSTOMER_OF_A)).contains(AccessRefusal.FOREIGN_ACCOUNT);
        assertThat(AccessRules.accountHolder(OPERATOR, CUSTOMER_OF_A)).contains(AccessRefusal.FOREIGN_ACCOUNT);
        assertThat(AccessRules.accountHolder(OPERATOR, ChartOfAccounts.centralBank()))
                .isEmpty();
        assertThat(AccessRules.accountHolder(BANK_A, ChartOfAccounts.centralBank()))
                .contains(AccessRefusal.FOREIGN_ACCOUNT);
    }

    @Test
    void an_id_outside_the_chart_of_accounts_belongs_to_nobody() {
        Id128 stray = new Id128(0x7F00_0000_0000_0000L | A.ispb(), 1);
        Id128 oversizedIspb = new Id128(((long) AccountKind.CUSTOMER.code << 56) | 0xFFFF_FFFFL, 1);
        for (Id128 id : new Id128[] {stray, oversizedIspb, Id128.ZERO}) {
            assertThat(AccessRules.accountHolder(BANK_A, id)).as(id.toString()).contains(AccessRefusal.FOREIGN_ACCOUNT);
            assertThat(AccessRules.accountHolder(OPERATOR, id))
                    .as(id.toString())
                    .contains(AccessRefusal.FOREIGN_ACCOUNT);
        }
    }

    @Test
    void a_payment_is_its_payer_s_bank_s_and_its_payee_s_bank_s_only() {
        assertThat(AccessRules.partyToPayment(BANK_A, CUSTOMER_OF_A, CUSTOMER_OF_B))
                .isEmpty();
        assertThat(AccessRules.partyToPayment(BANK_B, CUSTOMER_OF_A, CUSTOMER_OF_B))
                .isEmpty();
        assertThat(AccessRules.partyToPayment(new Caller.Bank(new BankId(33_333_333)), CUSTOMER_OF_A, CUSTOMER_OF_B))
                .contains(AccessRefusal.FOREIGN_PAYMENT);
        assertThat(AccessRules.partyToPayment(OPERATOR, CUSTOMER_OF_A, CUSTOMER_OF_B))
                .contains(AccessRefusal.FOREIGN_PAYMENT);
    }

    /**
     * Not a caller: {@code monitor} (the metrics scraper, service-support's own identity) nor {@code pre-identity}
     * (payment-api's owner of idempotency keys claimed before identity existed, which nobody may replay).
     */
    @Test
    void a_certificate_name_is_a_bank_s_eight_digit_ispb_or_the_operator_and_nothing_else() {
        assertThat(Caller.ofPrincipalName("ispb-00000001")).contains(Caller.bank(1));
        assertThat(Caller.ofPrincipalName("operator")).contains(Caller.OPERATOR);
        assertThat(Caller.bank(360_305).principalName()).isEqualTo("ispb-00360305");
        for (String name : new String[] {
            "ispb-1",
            "ispb-000000001",
            "ISPB-00000001",
            "ispb-0000000a",
            "Operator",
            "operator ",
            "",
            "ispb-",
            "ispb--0000001",
            "monitor",
            "pre-identity"
        }) {
            assertThat(Caller.ofPrincipalName(name)).as("\"%s\"", name).isEqualTo(Optional.empty());
        }
        assertThat(Caller.ofPrincipalName(null)).isEmpty();
    }
}
