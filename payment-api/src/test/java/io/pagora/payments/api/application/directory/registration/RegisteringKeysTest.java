package io.pagora.payments.api.application.directory.registration;

import static io.pagora.payments.api.application.directory.DirectoryOnFakes.A;
import static io.pagora.payments.api.application.directory.DirectoryOnFakes.B;
import static io.pagora.payments.api.application.directory.DirectoryOnFakes.BANK_A;
import static io.pagora.payments.api.application.directory.DirectoryOnFakes.BANK_B;
import static io.pagora.payments.api.application.directory.DirectoryOnFakes.account;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.directory.DirectoryOnFakes;
import io.pagora.payments.api.application.directory.registration.RegisteringKeys.NewKey;
import io.pagora.payments.api.application.directory.registration.RegisteringKeys.Outcome;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.AntiScanPolicy;
import io.pagora.payments.api.domain.directory.KeyEntry;
import io.pagora.payments.api.domain.directory.KeyType;
import io.pagora.payments.api.domain.directory.PixKey;
import io.pagora.settlement.domain.access.Caller;
import org.junit.jupiter.api.Test;

/** Each rule of a key's registration, change and deletion, on in-memory fakes. */
class RegisteringKeysTest {

    static final String MARIA = "52998224725";
    static final String JOAO = "12345678909";
    static final String LOJA = "11222333000181";

    final DirectoryOnFakes fakes = new DirectoryOnFakes(AntiScanPolicy.DICT);
    final RegisteringKeys registering = fakes.registering;
    final Id128 mariasAccount = account(BANK_A, 1);

    @Test
    void aBankRegistersItsCustomersKeyOnceAndARepeatAnswersTheSameKey() {
        NewKey email = new NewKey(key(KeyType.EMAIL, "maria@example.com"), mariasAccount, "Maria Souza", MARIA);

        Outcome first = registering.register(A, email);
        Outcome again = registering.register(A, email);

        KeyEntry entry = done(first, true);
        assertThat(done(again, false)).isEqualTo(entry);
        assertThat(registering.ofAccount(A, mariasAccount)).containsExactly(entry);
        assertThat(registering.ofAccount(B, mariasAccount))
                .as("another bank sees none")
                .isEmpty();
    }

    @Test
    void anotherBanksAccountReadsAsNoAccountAndNothingIsWritten() {
        NewKey foreign = new NewKey(key(KeyType.EMAIL, "x@example.com"), account(BANK_B, 1), "Maria Souza", MARIA);
        NewKey missing = new NewKey(key(KeyType.EMAIL, "y@example.com"), account(BANK_A, 999), "Maria Souza", MARIA);

        assertThat(refused(registering.register(A, foreign))).isEqualTo(RefusalReason.UNKNOWN_ACCOUNT);
        assertThat(refused(registering.register(A, missing))).isEqualTo(RefusalReason.UNKNOWN_ACCOUNT);
        assertThat(refused(registering.register(Caller.OPERATOR, foreign))).isEqualTo(RefusalReason.UNKNOWN_ACCOUNT);
        assertThat(fakes.keys.findAll(java.util.List.of(foreign.key(), missing.key())))
                .isEmpty();
    }

    @Test
    void aKeyOfAnotherAccountIsRefusedAndSaysNotWhoseItIs() {
        PixKey phone = key(KeyType.PHONE, "+5561912345678");
        done(registering.register(A, new NewKey(phone, mariasAccount, "Maria Souza", MARIA)), true);

        Outcome atB = registering.register(B, new NewKey(phone, account(BANK_B, 1), "Joao Lima", JOAO));
        Outcome atA = registering.register(A, new NewKey(phone, account(BANK_A, 2), "Joao Lima", JOAO));

        assertThat(refused(atB)).isEqualTo(RefusalReason.KEY_ALREADY_REGISTERED);
        assertThat(((Outcome.Refused) atB).problem().detail())
                .contains("another participant")
                .doesNotContain(mariasAccount.toString());
        assertThat(refused(atA)).isEqualTo(RefusalReason.KEY_ALREADY_REGISTERED);
        assertThat(fakes.keys.find(phone).orElseThrow().account()).isEqualTo(mariasAccount);
    }

    @Test
    void aCpfOrCnpjKeyIsItsHoldersOwnTaxId() {
        assertThat(refused(registering.register(A, new NewKey(key(KeyType.CPF, JOAO), mariasAccount, "Maria", MARIA))))
                .isEqualTo(RefusalReason.KEY_HOLDER_MISMATCH);
        assertThat(refused(registering.register(A, new NewKey(key(KeyType.CNPJ, LOJA), mariasAccount, "Maria", MARIA))))
                .isEqualTo(RefusalReason.KEY_HOLDER_MISMATCH);
        done(registering.register(A, new NewKey(key(KeyType.CPF, MARIA), mariasAccount, "Maria", MARIA)), true);
    }

    @Test
    void anAccountHasOneHolder() {
        done(
                registering.register(A, new NewKey(key(KeyType.EMAIL, "m@example.com"), mariasAccount, "Maria", MARIA)),
                true);
        assertThat(refused(registering.register(
                        A, new NewKey(key(KeyType.EMAIL, "j@example.com"), mariasAccount, "Joao", JOAO))))
                .isEqualTo(RefusalReason.KEY_HOLDER_MISMATCH);
    }

    @Test
    void aPersonsAccountHoldsFiveKeysAndACompanysTwenty() {
        for (int i = 0; i < 5; i++) {
            done(registering.register(A, new NewKey(email("m" + i), mariasAccount, "Maria", MARIA)), true);
        }
        Outcome sixth = registering.register(A, new NewKey(email("m5"), mariasAccount, "Maria", MARIA));
        assertThat(refused(sixth)).isEqualTo(RefusalReason.KEY_LIMIT_REACHED);
        assertThat(((Outcome.Refused) sixth).problem().numbers()).containsEntry("keysMax", 5L);
        assertThat(fakes.keys.find(email("m5"))).isEmpty();

        Id128 shop = account(BANK_A, 2);
        for (int i = 0; i < 20; i++) {
            done(registering.register(A, new NewKey(email("loja" + i), shop, "Loja Ltda", LOJA)), true);
        }
        assertThat(refused(registering.register(A, new NewKey(email("loja20"), shop, "Loja Ltda", LOJA))))
                .isEqualTo(RefusalReason.KEY_LIMIT_REACHED);
    }

    @Test
    void aRandomKeyIsMadeOncePerIdempotencyKey() {
        Outcome first = registering.registerRandom(A, "evp-1", mariasAccount, "Maria", MARIA);
        Outcome retry = registering.registerRandom(A, "evp-1", mariasAccount, "Maria", MARIA);
        Outcome other = registering.registerRandom(A, "evp-2", mariasAccount, "Maria", MARIA);
        Outcome reused = registering.registerRandom(A, "evp-1", account(BANK_A, 2), "Maria", MARIA);

        KeyEntry made = done(first, true);
        assertThat(made.key().type()).isEqualTo(KeyType.EVP);
        assertThat(done(retry, false)).isEqualTo(made);
        assertThat(done(other, true).key()).isNotEqualTo(made.key());
        assertThat(refused(reused)).isEqualTo(RefusalReason.IDEMPOTENCY_KEY_REUSED);
        assertThat(refused(registering.register(A, new NewKey(made.key(), mariasAccount, "Maria", MARIA))))
                .as("an EVP is never given by the bank")
                .isEqualTo(RefusalReason.INVALID_KEY);
    }

    @Test
    void onlyTheHoldingBankChangesOrDeletesAKeyAndAnotherSeesNoKey() {
        PixKey phone = key(KeyType.PHONE, "+5561912345678");
        done(registering.register(A, new NewKey(phone, mariasAccount, "Maria Souza", MARIA)), true);

        assertThat(refused(registering.update(B, phone, account(BANK_B, 1), "Maria")))
                .isEqualTo(RefusalReason.KEY_NOT_FOUND);
        assertThat(registering.delete(B, phone)).isFalse();
        assertThat(registering.own(B, phone)).isEmpty();

        Id128 other = account(BANK_A, 3);
        KeyEntry moved = done(registering.update(A, phone, other, "Maria S. Souza"), true);
        assertThat(moved.account()).isEqualTo(other);
        assertThat(moved.holderTaxId()).isEqualTo(MARIA);
        assertThat(refused(registering.update(A, phone, account(BANK_B, 2), "Maria")))
                .as("never to another bank's account: a claim moves it there")
                .isEqualTo(RefusalReason.UNKNOWN_ACCOUNT);

        assertThat(registering.delete(A, phone)).isTrue();
        assertThat(registering.delete(A, phone))
                .as("a second delete finds nothing")
                .isFalse();
        assertThat(fakes.keys.find(phone)).isEmpty();
    }

    private static PixKey email(String local) {
        return key(KeyType.EMAIL, local + "@example.com");
    }

    static PixKey key(KeyType type, String value) {
        return PixKey.of(type, value).orElseThrow();
    }

    private static KeyEntry done(Outcome outcome, boolean created) {
        assertThat(outcome).as("%s", outcome).isInstanceOf(Outcome.Done.class);
        assertThat(((Outcome.Done) outcome).created()).isEqualTo(created);
        return ((Outcome.Done) outcome).entry();
    }

    private static RefusalReason refused(Outcome outcome) {
        assertThat(outcome).as("%s", outcome).isInstanceOf(Outcome.Refused.class);
        return ((Outcome.Refused) outcome).problem().type();
    }
}
