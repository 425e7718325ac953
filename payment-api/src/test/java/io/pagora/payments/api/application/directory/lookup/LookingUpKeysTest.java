package io.pagora.payments.api.application.directory.lookup;

import static io.pagora.payments.api.application.directory.DirectoryOnFakes.BANK_A;
import static io.pagora.payments.api.application.directory.DirectoryOnFakes.BANK_B;
import static io.pagora.payments.api.application.directory.DirectoryOnFakes.account;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.payments.api.application.directory.DirectoryOnFakes;
import io.pagora.payments.api.application.directory.LookupStore.Reserved;
import io.pagora.payments.api.application.directory.lookup.LookingUpKeys.Answer;
import io.pagora.payments.api.application.directory.lookup.LookingUpKeys.Ask;
import io.pagora.payments.api.application.directory.lookup.LookingUpKeys.Level;
import io.pagora.payments.api.application.directory.registration.RegisteringKeys.NewKey;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.AntiScanPolicy;
import io.pagora.payments.api.domain.directory.PixKey;
import io.pagora.payments.api.domain.directory.TokenBucket.Limits;
import io.pagora.settlement.domain.PixId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The look-ups' answers and the anti-scanning buckets, on in-memory fakes. */
class LookingUpKeysTest {

    static final String PAYER = "52998224725";
    static final String OTHER_PAYER = "12345678909";
    static final PixKey KEY = PixKey.of("+5561912345678").orElseThrow();

    /** DICT's end-user policy; a bank of 60 tokens and 60 a minute, a miss costing it 3. */
    final AntiScanPolicy policy =
            new AntiScanPolicy(new Limits(100, 2), new Limits(1_000, 20), new Limits(60, 60), 1, 20, 1, 3);

    final DirectoryOnFakes fakes = new DirectoryOnFakes(policy);
    final LookingUpKeys lookups = fakes.lookingUp;

    LookingUpKeysTest() {
        fakes.registering.register(DirectoryOnFakes.B, new NewKey(KEY, account(BANK_B, 1), "Maria da Silva", PAYER));
    }

    @Test
    void aHitAnswersTheAccountAndReservesAnEndToEndIdOfThePayersBank() {
        Answer answer = one(new Ask(BANK_A, PAYER, KEY));

        Answer.Found found = (Answer.Found) answer;
        assertThat(found.entry().account()).isEqualTo(account(BANK_B, 1));
        assertThat(PixId.problem(found.endToEndId().value(), PixId.Kind.END_TO_END))
                .isEmpty();
        assertThat(found.endToEndId().bank()).isEqualTo(BANK_A);
        assertThat(levels(PAYER)).containsExactly(59.0, 99.0);
    }

    @Test
    void aMissCostsTwentyOfTheEndUsersTokensAndThreeOfTheBanks() {
        Answer answer =
                one(new Ask(BANK_A, PAYER, PixKey.of("nobody@example.com").orElseThrow()));

        assertThat(answer).isInstanceOf(Answer.Missing.class);
        assertThat(levels(PAYER)).containsExactly(57.0, 80.0);
    }

    @Test
    void aScanningEndUserIsRefusedOnceItsBucketIsEmptyWhateverTheKeyAndItsBankServesOthers() {
        List<Answer> answers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            answers.add(one(new Ask(
                    BANK_A, PAYER, PixKey.of("guess" + i + "@example.com").orElseThrow())));
        }
        // 100 tokens: five misses empty the bucket; every later look-up is refused, the existing key too.
        assertThat(answers.subList(0, 5))
                .allSatisfy(answer -> assertThat(answer).isInstanceOf(Answer.Missing.class));
        assertThat(answers.subList(5, 8))
                .allSatisfy(answer -> assertThat(answer).isInstanceOf(Answer.Limited.class));
        Answer.Limited existing = (Answer.Limited) one(new Ask(BANK_A, PAYER, KEY));
        assertThat(existing.problem().type()).isEqualTo(RefusalReason.LOOK_UP_RATE_LIMITED);
        assertThat(existing.problem().retryAfterSeconds())
                .as("1 token at 2 a minute")
                .isEqualTo(30);

        assertThat(one(new Ask(BANK_A, OTHER_PAYER, KEY)))
                .as("another end user of the bank")
                .isInstanceOf(Answer.Found.class);
    }

    @Test
    void aBankScanningForManyEndUsersEmptiesItsOwnBucket() {
        int limited = 0;
        for (int i = 0; i < 30; i++) {
            String payer = cpf(i);
            Answer answer = one(new Ask(
                    BANK_A, payer, PixKey.of("guess" + i + "@example.com").orElseThrow()));
            if (answer instanceof Answer.Limited refusal) {
                limited++;
                assertThat(refusal.problem().detail()).contains("your bank");
            }
        }
        // 60 tokens, 3 a miss: twenty misses, then refused.
        assertThat(limited).isEqualTo(10);
        assertThat(one(new Ask(BANK_B, PAYER, KEY)))
                .as("another bank is served")
                .isInstanceOf(Answer.Found.class);
    }

    @Test
    void bucketsRefillWithTimeAndAPaidLookUpGivesItsCostBack() {
        Answer.Found found = (Answer.Found) one(new Ask(BANK_A, PAYER, KEY));
        fakes.clock.set(fakes.clock.instant().plus(Duration.ofSeconds(1)));
        assertThat(levels(PAYER)).containsExactly(60.0, 99.033333);

        lookups.paid(List.of(
                new Reserved("ispb-" + BANK_A, found.endToEndId(), KEY, account(BANK_B, 1), PAYER, found.at())));
        lookups.flushRefunds();

        assertThat(levels(PAYER)).as("capped at the burst").containsExactly(60.0, 100.0);
    }

    @Test
    void aBatchIsOneStoreTransaction() {
        int before = fakes.lookupStore.transactions();
        List<Answer> answers = lookups.lookUpAll(
                List.of(new Ask(BANK_A, PAYER, KEY), new Ask(BANK_A, OTHER_PAYER, KEY), new Ask(BANK_B, PAYER, KEY)));
        assertThat(answers).allSatisfy(answer -> assertThat(answer).isInstanceOf(Answer.Found.class));
        assertThat(answers.stream()
                        .map(answer -> ((Answer.Found) answer).endToEndId())
                        .distinct())
                .hasSize(3);
        assertThat(fakes.lookupStore.transactions() - before).isEqualTo(1);
    }

    private List<Double> levels(String payerId) {
        return lookups.levels(BANK_A, payerId).stream()
                .map(Level::tokens)
                .map(t -> Math.round(t * 1e6) / 1e6)
                .toList();
    }

    private Answer one(Ask ask) {
        return lookups.lookUpAll(List.of(ask)).getFirst();
    }

    /** The {@code i}-th CPF with valid check digits. */
    static String cpf(int i) {
        for (int n = 100_000_000 + i * 1_000; ; n++) {
            String base = Integer.toString(n);
            for (int d = 0; d < 100; d++) {
                String cpf = base + String.format("%02d", d);
                if (io.pagora.payments.api.domain.directory.TaxId.isCpf(cpf)) {
                    return cpf;
                }
            }
        }
    }
}
