package io.pagora.ledger.adapter.tigerbeetle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.pagora.kernel.Id128;
import io.pagora.ledger.port.Account;
import io.pagora.ledger.port.AccountFlags;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.Ledger;
import io.pagora.ledger.port.LedgerUnavailableException;
import io.pagora.ledger.port.NewAccount;
import io.pagora.ledger.port.NewTransfer;
import io.pagora.ledger.port.TransferResult;
import io.pagora.testing.LocalTigerBeetleCluster;
import io.pagora.testing.ServerBacked;
import io.pagora.testing.ledger.MoneyInvariants;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The TigerBeetle adapter on a three-replica cluster (docs/scale-out.md) with a replica down: the cluster keeps
 * settling with each replica killed in turn (the primary among them) or one paused past the client's deadline, a
 * replica brought back catches up, and a batch whose fate the client could not learn (no quorum: two replicas down)
 * is settled exactly once by sending it again with the same ids. Each step's payments are chains of linked pending transfers posted
 * afterwards, as clearing settles them; after each step every transfer is accounted for and the money invariants hold.
 */
@ServerBacked
class TigerBeetleClusterTest {

    private static final int LEDGER_BRL = 986;
    private static final int CODE = 1;
    private static final int CUSTOMERS = 6;
    private static final long FUNDING = 1_000_000;
    /** Long enough to see a view change through (seconds, on a busy 2-core machine). */
    private static final TigerBeetleLedger.Config CONFIG = new TigerBeetleLedger.Config(Duration.ofSeconds(30), 16);
    /** Short, for the batch sent while no quorum can answer: its fate is unknown when this runs out. */
    private static final TigerBeetleLedger.Config IMPATIENT = new TigerBeetleLedger.Config(Duration.ofSeconds(3), 16);

    private static final long RUN_HI = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    private static final AtomicLong NEXT_LO = new AtomicLong(1);

    LocalTigerBeetleCluster cluster;
    Ledger ledger;
    Id128 bank;
    final List<Id128> customers = new ArrayList<>();
    long paymentsPosted;
    long centavosMoved;

    @BeforeEach
    void start() {
        cluster = LocalTigerBeetleCluster.startOrSkip("TigerBeetleClusterTest", 3);
        ledger = new TigerBeetleLedger(0, cluster.addresses(), CONFIG);
        bank = newId();
        List<NewAccount> accounts = new ArrayList<>(List.of(account(bank, AccountFlags.NONE)));
        for (int i = 0; i < CUSTOMERS; i++) {
            Id128 customer = newId();
            customers.add(customer);
            accounts.add(account(customer, AccountFlags.DEBITS_MUST_NOT_EXCEED_CREDITS));
        }
        assertThat(ledger.createAccounts(accounts)).containsOnly(AccountResult.OK);
        List<NewTransfer> funding = customers.stream()
                .map(customer -> NewTransfer.posted(newId(), bank, customer, FUNDING, LEDGER_BRL, CODE, Id128.ZERO))
                .toList();
        assertThat(ledger.createTransfers(funding)).containsOnly(TransferResult.OK);
    }

    @AfterEach
    void stop() {
        if (ledger != null) {
            ledger.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void settlesWithAnyOneReplicaKilledThePrimaryIncludedAndARestartedReplicaCatchesUp() {
        settle(20, "all three replicas up");
        // Each replica killed in turn, so the primary too, whichever it is (a cluster often starts with a view change):
        // killing it forces another before the cluster answers again. A restart alone moves no primary.
        cluster.kill(0);
        settle(20, "replica 0 killed");
        cluster.restart(0);
        cluster.kill(1);
        settle(20, "replica 0 back, replica 1 killed");
        cluster.restart(1);
        cluster.kill(2);
        // Replicas 0 and 1 must now form the quorum: 0 can only if it caught up on what it missed while down.
        settle(20, "replica 2 killed: the quorum is the two restarted replicas");
        cluster.restart(2);
        settle(20, "all three back");
    }

    @Test
    void settlesWhileAReplicaIsPausedLongerThanTheClientDeadline() throws InterruptedException {
        settle(10, "before the pause");
        cluster.pause(0);
        try {
            settle(20, "replica 0 paused (SIGSTOP)");
            // Lets a client deadline pass on purpose while the replica stays paused: there is nothing to poll for.
            Thread.sleep(IMPATIENT.requestTimeout().toMillis());
            settle(20, "replica 0 still paused, past a client deadline");
        } finally {
            cluster.resume(0);
        }
        settle(10, "replica 0 resumed");
    }

    @Test
    void aBatchWhoseFateWasUnknownIsSettledOnceWhenSentAgain() {
        settle(10, "before the outage");
        List<NewTransfer> chains = chains(10);
        cluster.kill(1);
        cluster.kill(2);
        try (Ledger impatient = new TigerBeetleLedger(0, cluster.addresses(), IMPATIENT)) {
            assertThatThrownBy(() -> impatient.createTransfers(chains))
                    .as("no quorum: the client cannot learn the batch's fate, and says so")
                    .isInstanceOf(LedgerUnavailableException.class);
        }
        cluster.restart(1);
        cluster.restart(2);
        List<TransferResult> results = ledger.createTransfers(chains);
        assertThat(results)
                .as("sent again with the same ids: created now, or found created before")
                .allMatch(result -> result == TransferResult.OK || result == TransferResult.EXISTS);
        post(chains);
        assertBooks("the unknown batch sent again");
    }

    /** {@code payments} chains of two linked pending legs (customer -> bank -> customer), then each chain posted. */
    private void settle(int payments, String when) {
        List<NewTransfer> chains = chains(payments);
        assertThat(ledger.createTransfers(chains)).as("reserved, %s", when).containsOnly(TransferResult.OK);
        post(chains);
        assertBooks(when);
    }

    private List<NewTransfer> chains(int payments) {
        List<NewTransfer> legs = new ArrayList<>();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < payments; i++) {
            Id128 payer = customers.get(random.nextInt(CUSTOMERS));
            Id128 payee = customers.get(
                    Math.floorMod(customers.indexOf(payer) + 1 + random.nextInt(CUSTOMERS - 1), CUSTOMERS));
            long amount = 1 + random.nextInt(100);
            legs.add(NewTransfer.pending(newId(), payer, bank, amount, 60, LEDGER_BRL, CODE, Id128.ZERO)
                    .linked());
            legs.add(NewTransfer.pending(newId(), bank, payee, amount, 60, LEDGER_BRL, CODE, Id128.ZERO));
        }
        return legs;
    }

    private void post(List<NewTransfer> pendings) {
        List<NewTransfer> posts = pendings.stream()
                .map(pending -> NewTransfer.post(postId(pending.id()), pending.id(), pending.amount()))
                .toList();
        assertThat(ledger.createTransfers(posts))
                .as("posted")
                .allMatch(result -> result == TransferResult.OK || result == TransferResult.EXISTS);
        assertThat(ledger.lookupTransfers(posts.stream().map(NewTransfer::id).toList()))
                .hasSize(posts.size());
        // Each chain's first leg debits its payer: that is the money a payment moved between customers.
        paymentsPosted += pendings.size() / 2;
        centavosMoved += pendings.stream()
                .filter(leg -> customers.contains(leg.debitAccountId()))
                .mapToLong(NewTransfer::amount)
                .sum();
    }

    /** Every customer's money is where the posted chains put it, nothing is held, and the books balance. */
    private void assertBooks(String when) {
        List<Id128> all = new ArrayList<>(customers);
        all.add(bank);
        MoneyInvariants.checkNothingPending(ledger, all, when);
        List<Account> accounts = ledger.lookupAccounts(customers);
        long held = accounts.stream()
                .mapToLong(account -> account.creditsPosted() - account.debitsPosted())
                .sum();
        assertThat(held)
                .as("the customers' money, %s: the chains only moved it between them", when)
                .isEqualTo(FUNDING * CUSTOMERS);
        long debited = accounts.stream().mapToLong(Account::debitsPosted).sum();
        assertThat(debited)
                .as("every posted chain debited its payer once, %s (%d payments)", when, paymentsPosted)
                .isEqualTo(centavosMoved);
    }

    private static Id128 postId(Id128 pending) {
        return new Id128(pending.hi() ^ 0x5050_5050_5050_5050L, pending.lo());
    }

    private static NewAccount account(Id128 id, int flags) {
        return new NewAccount(id, LEDGER_BRL, 10, flags, Id128.ZERO, 0, 0);
    }

    private static Id128 newId() {
        return new Id128(RUN_HI, NEXT_LO.getAndIncrement());
    }
}
