package io.pagora.payments.api.application.directory.claims;

import static io.pagora.payments.api.application.directory.DirectoryOnFakes.A;
import static io.pagora.payments.api.application.directory.DirectoryOnFakes.B;
import static io.pagora.payments.api.application.directory.DirectoryOnFakes.BANK_A;
import static io.pagora.payments.api.application.directory.DirectoryOnFakes.BANK_B;
import static io.pagora.payments.api.application.directory.DirectoryOnFakes.account;
import static org.assertj.core.api.Assertions.assertThat;

import io.pagora.kernel.Id128;
import io.pagora.payments.api.application.directory.DirectoryOnFakes;
import io.pagora.payments.api.application.directory.InMemoryClaimStore;
import io.pagora.payments.api.application.directory.claims.ClaimingKeys.Outcome;
import io.pagora.payments.api.application.directory.registration.RegisteringKeys.NewKey;
import io.pagora.payments.api.domain.RefusalReason;
import io.pagora.payments.api.domain.directory.AntiScanPolicy;
import io.pagora.payments.api.domain.directory.Claim;
import io.pagora.payments.api.domain.directory.PixKey;
import io.pagora.settlement.domain.access.Caller;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The claim life cycle's rules on in-memory fakes: who may open, confirm and cancel, and what the deadline does. */
class ClaimingKeysTest {

    static final String MARIA = "52998224725";
    static final String JOAO = "12345678909";
    static final Duration PERIOD = Duration.ofMinutes(5);

    final DirectoryOnFakes fakes = new DirectoryOnFakes(AntiScanPolicy.DICT);
    final List<Claim> told = new ArrayList<>();
    final ClaimingKeys claims = new ClaimingKeys(
            new InMemoryClaimStore(fakes.keys), told::addAll, fakes.accounts, fakes.clock, PERIOD, UUID::randomUUID);
    final PixKey phone = PixKey.of("+5561912345678").orElseThrow();
    final PixKey cpf = PixKey.of(MARIA).orElseThrow();
    final Id128 mariaAtA = account(BANK_A, 1);
    final Id128 mariaAtB = account(BANK_B, 1);

    ClaimingKeysTest() {
        fakes.registering.register(A, new NewKey(phone, mariaAtA, "Maria Souza", MARIA));
        fakes.registering.register(A, new NewKey(cpf, mariaAtA, "Maria Souza", MARIA));
    }

    @Test
    void aPortabilityClaimConfirmedByTheDonorMovesTheKeyAndTellsBothBanks() {
        Claim opened = open(B, "p1", Claim.Type.PORTABILITY, phone, mariaAtB, MARIA);

        assertThat(opened.donor()).isEqualTo("ispb-" + BANK_A);
        assertThat(told)
                .singleElement()
                .satisfies(claim -> assertThat(claim.status()).isEqualTo(Claim.Status.OPEN));
        Claim confirmed = done(claims.confirm(A, opened.id()));

        assertThat(confirmed.status()).isEqualTo(Claim.Status.COMPLETED);
        assertThat(confirmed.resolution()).isEqualTo(Claim.Resolution.DONOR_CONFIRMED);
        assertThat(fakes.keys.find(phone).orElseThrow().account()).isEqualTo(mariaAtB);
        assertThat(told).hasSize(2);
        assertThat(refused(claims.cancel(B, opened.id()))).isEqualTo(RefusalReason.CLAIM_CLOSED);
    }

    @Test
    void theSameOpeningAgainAnswersTheSameClaimAndASecondClaimWaits() {
        Claim first = open(B, "p1", Claim.Type.PORTABILITY, phone, mariaAtB, MARIA);
        Outcome again = claims.open(B, "p1", Claim.Type.PORTABILITY, phone, mariaAtB, "Maria Souza", MARIA);
        Outcome other = claims.open(B, "p2", Claim.Type.PORTABILITY, phone, mariaAtB, "Maria Souza", MARIA);

        assertThat(((Outcome.Done) again).claim()).isEqualTo(first);
        assertThat(((Outcome.Done) again).created()).isFalse();
        assertThat(refused(other)).isEqualTo(RefusalReason.CLAIM_ALREADY_OPEN);
    }

    @Test
    void eachRuleOfOpeningHasItsRefusal() {
        assertThat(refused(claims.open(A, "x", Claim.Type.PORTABILITY, phone, account(BANK_A, 2), "Maria", MARIA)))
                .as("a key of one's own bank")
                .isEqualTo(RefusalReason.CLAIM_OF_OWN_KEY);
        assertThat(refused(claims.open(B, "y", Claim.Type.PORTABILITY, phone, mariaAtB, "Joao", JOAO)))
                .as("portability by another holder")
                .isEqualTo(RefusalReason.CLAIM_NOT_ALLOWED);
        assertThat(refused(claims.open(B, "z", Claim.Type.OWNERSHIP, cpf, mariaAtB, "Joao", JOAO)))
                .as("ownership of a CPF key")
                .isEqualTo(RefusalReason.CLAIM_NOT_ALLOWED);
        assertThat(refused(claims.open(B, "w", Claim.Type.OWNERSHIP, phone, mariaAtB, "Maria", MARIA)))
                .as("ownership by the key's own holder")
                .isEqualTo(RefusalReason.CLAIM_NOT_ALLOWED);
        assertThat(refused(claims.open(B, "v", Claim.Type.PORTABILITY, phone, mariaAtA, "Maria", MARIA)))
                .as("for another bank's account")
                .isEqualTo(RefusalReason.UNKNOWN_ACCOUNT);
        assertThat(refused(claims.open(
                        B,
                        "u",
                        Claim.Type.PORTABILITY,
                        PixKey.of("nobody@example.com").orElseThrow(),
                        mariaAtB,
                        "Maria",
                        MARIA)))
                .isEqualTo(RefusalReason.KEY_NOT_FOUND);
        assertThat(told).isEmpty();
    }

    @Test
    void onlyTheDonorConfirmsEitherBankCancelsAndAThirdSeesNothing() {
        Claim opened = open(B, "p1", Claim.Type.PORTABILITY, phone, mariaAtB, MARIA);
        Caller third = Caller.bank(43);

        assertThat(refused(claims.confirm(B, opened.id()))).isEqualTo(RefusalReason.CLAIM_NOT_FOUND);
        assertThat(refused(claims.confirm(third, opened.id()))).isEqualTo(RefusalReason.CLAIM_NOT_FOUND);
        assertThat(claims.read(third, opened.id())).isEmpty();
        Claim cancelled = done(claims.cancel(B, opened.id()));

        assertThat(cancelled.resolution()).isEqualTo(Claim.Resolution.CLAIMER_CANCELLED);
        assertThat(fakes.keys.find(phone).orElseThrow().account()).isEqualTo(mariaAtA);
    }

    @Test
    void atTheDeadlineAnOwnershipClaimCompletesAndAPortabilityClaimIsCancelled() {
        PixKey email = PixKey.of("maria@example.com").orElseThrow();
        fakes.registering.register(A, new NewKey(email, mariaAtA, "Maria Souza", MARIA));
        Claim ownership = open(B, "o1", Claim.Type.OWNERSHIP, phone, account(BANK_B, 2), JOAO);
        Claim portability = open(B, "p1", Claim.Type.PORTABILITY, email, mariaAtB, MARIA);

        fakes.clock.set(fakes.clock.instant().plus(PERIOD).minusSeconds(1));
        assertThat(claims.resolveDue()).as("not yet").isZero();
        fakes.clock.set(fakes.clock.instant().plusSeconds(1));
        assertThat(claims.resolveDue()).isEqualTo(2);

        assertThat(claims.read(B, ownership.id()).orElseThrow().resolution())
                .isEqualTo(Claim.Resolution.DEADLINE_COMPLETED);
        assertThat(fakes.keys.find(phone).orElseThrow().account()).isEqualTo(account(BANK_B, 2));
        assertThat(fakes.keys.find(phone).orElseThrow().holderTaxId()).isEqualTo(JOAO);
        assertThat(claims.read(B, portability.id()).orElseThrow().resolution())
                .isEqualTo(Claim.Resolution.DEADLINE_CANCELLED);
        assertThat(fakes.keys.find(email).orElseThrow().account()).isEqualTo(mariaAtA);
    }

    @Test
    void aKeyChangedByItsBankBeforeTheClaimCompletesCancelsIt() {
        Claim opened = open(B, "p1", Claim.Type.PORTABILITY, phone, mariaAtB, MARIA);
        fakes.registering.update(A, phone, account(BANK_A, 3), "Maria Souza");

        Claim ended = done(claims.confirm(A, opened.id()));

        assertThat(ended.status()).isEqualTo(Claim.Status.CANCELLED);
        assertThat(ended.resolution()).isEqualTo(Claim.Resolution.KEY_CHANGED);
        assertThat(fakes.keys.find(phone).orElseThrow().account()).isEqualTo(account(BANK_A, 3));
    }

    private Claim open(Caller caller, String requestKey, Claim.Type type, PixKey key, Id128 account, String taxId) {
        return done(claims.open(caller, requestKey, type, key, account, "Holder", taxId));
    }

    private static Claim done(Outcome outcome) {
        assertThat(outcome).as("%s", outcome).isInstanceOf(Outcome.Done.class);
        return ((Outcome.Done) outcome).claim();
    }

    private static RefusalReason refused(Outcome outcome) {
        assertThat(outcome).as("%s", outcome).isInstanceOf(Outcome.Refused.class);
        return ((Outcome.Refused) outcome).problem().type();
    }
}
