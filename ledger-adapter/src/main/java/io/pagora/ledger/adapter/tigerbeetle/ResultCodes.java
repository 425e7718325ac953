package io.pagora.ledger.adapter.tigerbeetle;

import com.tigerbeetle.CreateAccountResult;
import com.tigerbeetle.CreateAccountResultBatch;
import com.tigerbeetle.CreateTransferResult;
import com.tigerbeetle.CreateTransferResultBatch;
import io.pagora.kernel.Check;
import io.pagora.ledger.port.AccountResult;
import io.pagora.ledger.port.TransferResult;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * TigerBeetle's create results in the port's terms: every code mapped explicitly, and the sparse
 * failure list expanded into one result per event.
 *
 * <p>TigerBeetle answers creates with only the failures, each with its index. The port answers one result
 * per input, so unlisted indexes are {@code OK}. Each mapping is an exhaustive {@code switch} with no
 * default, so a code added by a client upgrade fails compilation instead of being read as something else.
 * A reply that breaks the protocol (an index out of range or repeated, a missing code, {@code Ok} listed as
 * a failure) is a {@link Check.InvariantViolation}: a crash, never a success.
 */
final class ResultCodes {

    private ResultCodes() {}

    /** Expands TigerBeetle's sparse failures (index, code) into one result per account, {@code OK} unless listed. */
    static List<AccountResult> expandAccountResults(int accountCount, CreateAccountResultBatch failures) {
        Check.that(failures != null, "create_accounts answered no result batch");
        Check.that(
                failures.getLength() <= accountCount,
                "create_accounts answered %d failures for %d accounts",
                failures.getLength(),
                accountCount);
        AccountResult[] results = new AccountResult[accountCount];
        Arrays.fill(results, AccountResult.OK);
        BitSet listed = new BitSet(accountCount);
        while (failures.next()) {
            int index = failures.getIndex();
            CreateAccountResult result = failures.getResult();
            Check.that(
                    index >= 0 && index < accountCount,
                    "create_accounts failure index %d out of range for %d accounts",
                    index,
                    accountCount);
            Check.that(!listed.get(index), "create_accounts listed index %d twice", index);
            Check.that(result != null, "create_accounts failure at index %d has no known code", index);
            Check.that(result != CreateAccountResult.Ok, "create_accounts listed index %d as a failure with Ok", index);
            listed.set(index);
            results[index] = map(result);
        }
        return List.of(results);
    }

    /** Expands TigerBeetle's sparse failures (index, code) into one result per transfer, {@code OK} unless listed. */
    static List<TransferResult> expandTransferResults(int transferCount, CreateTransferResultBatch failures) {
        Check.that(failures != null, "create_transfers answered no result batch");
        Check.that(
                failures.getLength() <= transferCount,
                "create_transfers answered %d failures for %d transfers",
                failures.getLength(),
                transferCount);
        TransferResult[] results = new TransferResult[transferCount];
        Arrays.fill(results, TransferResult.OK);
        BitSet listed = new BitSet(transferCount);
        while (failures.next()) {
            int index = failures.getIndex();
            CreateTransferResult result = failures.getResult();
            Check.that(
                    index >= 0 && index < transferCount,
                    "create_transfers failure index %d out of range for %d transfers",
                    index,
                    transferCount);
            Check.that(!listed.get(index), "create_transfers listed index %d twice", index);
            Check.that(result != null, "create_transfers failure at index %d has no known code", index);
            Check.that(
                    result != CreateTransferResult.Ok, "create_transfers listed index %d as a failure with Ok", index);
            listed.set(index);
            results[index] = map(result);
        }
        return List.of(results);
    }

    /** Explicit, exhaustive and default-free: a code added to TigerBeetle's enum must fail compilation here. */
    static AccountResult map(CreateAccountResult result) {
        return switch (result) {
            case Ok -> AccountResult.OK;
            case LinkedEventFailed -> AccountResult.LINKED_EVENT_FAILED;
            case LinkedEventChainOpen -> AccountResult.LINKED_EVENT_CHAIN_OPEN;
            case ImportedEventExpected -> AccountResult.IMPORTED_EVENT_EXPECTED;
            case ImportedEventNotExpected -> AccountResult.IMPORTED_EVENT_NOT_EXPECTED;
            case TimestampMustBeZero -> AccountResult.TIMESTAMP_MUST_BE_ZERO;
            case ImportedEventTimestampOutOfRange -> AccountResult.IMPORTED_EVENT_TIMESTAMP_OUT_OF_RANGE;
            case ImportedEventTimestampMustNotAdvance -> AccountResult.IMPORTED_EVENT_TIMESTAMP_MUST_NOT_ADVANCE;
            case ReservedField -> AccountResult.RESERVED_FIELD;
            case ReservedFlag -> AccountResult.RESERVED_FLAG;
            case IdMustNotBeZero -> AccountResult.ID_MUST_NOT_BE_ZERO;
            case IdMustNotBeIntMax -> AccountResult.ID_MUST_NOT_BE_INT_MAX;
            case ExistsWithDifferentFlags -> AccountResult.EXISTS_WITH_DIFFERENT_FLAGS;
            case ExistsWithDifferentUserData128 -> AccountResult.EXISTS_WITH_DIFFERENT_USER_DATA_128;
            case ExistsWithDifferentUserData64 -> AccountResult.EXISTS_WITH_DIFFERENT_USER_DATA_64;
            case ExistsWithDifferentUserData32 -> AccountResult.EXISTS_WITH_DIFFERENT_USER_DATA_32;
            case ExistsWithDifferentLedger -> AccountResult.EXISTS_WITH_DIFFERENT_LEDGER;
            case ExistsWithDifferentCode -> AccountResult.EXISTS_WITH_DIFFERENT_CODE;
            case Exists -> AccountResult.EXISTS;
            case FlagsAreMutuallyExclusive -> AccountResult.FLAGS_ARE_MUTUALLY_EXCLUSIVE;
            case DebitsPendingMustBeZero -> AccountResult.DEBITS_PENDING_MUST_BE_ZERO;
            case DebitsPostedMustBeZero -> AccountResult.DEBITS_POSTED_MUST_BE_ZERO;
            case CreditsPendingMustBeZero -> AccountResult.CREDITS_PENDING_MUST_BE_ZERO;
            case CreditsPostedMustBeZero -> AccountResult.CREDITS_POSTED_MUST_BE_ZERO;
            case LedgerMustNotBeZero -> AccountResult.LEDGER_MUST_NOT_BE_ZERO;
            case CodeMustNotBeZero -> AccountResult.CODE_MUST_NOT_BE_ZERO;
            case ImportedEventTimestampMustNotRegress -> AccountResult.IMPORTED_EVENT_TIMESTAMP_MUST_NOT_REGRESS;
        };
    }

    /** Explicit, exhaustive and default-free: a code added to TigerBeetle's enum must fail compilation here. */
    static TransferResult map(CreateTransferResult result) {
        return switch (result) {
            case Ok -> TransferResult.OK;
            case LinkedEventFailed -> TransferResult.LINKED_EVENT_FAILED;
            case LinkedEventChainOpen -> TransferResult.LINKED_EVENT_CHAIN_OPEN;
            case ImportedEventExpected -> TransferResult.IMPORTED_EVENT_EXPECTED;
            case ImportedEventNotExpected -> TransferResult.IMPORTED_EVENT_NOT_EXPECTED;
            case TimestampMustBeZero -> TransferResult.TIMESTAMP_MUST_BE_ZERO;
            case ImportedEventTimestampOutOfRange -> TransferResult.IMPORTED_EVENT_TIMESTAMP_OUT_OF_RANGE;
            case ImportedEventTimestampMustNotAdvance -> TransferResult.IMPORTED_EVENT_TIMESTAMP_MUST_NOT_ADVANCE;
            case ReservedFlag -> TransferResult.RESERVED_FLAG;
            case IdMustNotBeZero -> TransferResult.ID_MUST_NOT_BE_ZERO;
            case IdMustNotBeIntMax -> TransferResult.ID_MUST_NOT_BE_INT_MAX;
            case ExistsWithDifferentFlags -> TransferResult.EXISTS_WITH_DIFFERENT_FLAGS;
            case ExistsWithDifferentPendingId -> TransferResult.EXISTS_WITH_DIFFERENT_PENDING_ID;
            case ExistsWithDifferentTimeout -> TransferResult.EXISTS_WITH_DIFFERENT_TIMEOUT;
            case ExistsWithDifferentDebitAccountId -> TransferResult.EXISTS_WITH_DIFFERENT_DEBIT_ACCOUNT_ID;
            case ExistsWithDifferentCreditAccountId -> TransferResult.EXISTS_WITH_DIFFERENT_CREDIT_ACCOUNT_ID;
            case ExistsWithDifferentAmount -> TransferResult.EXISTS_WITH_DIFFERENT_AMOUNT;
            case ExistsWithDifferentUserData128 -> TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_128;
            case ExistsWithDifferentUserData64 -> TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_64;
            case ExistsWithDifferentUserData32 -> TransferResult.EXISTS_WITH_DIFFERENT_USER_DATA_32;
            case ExistsWithDifferentLedger -> TransferResult.EXISTS_WITH_DIFFERENT_LEDGER;
            case ExistsWithDifferentCode -> TransferResult.EXISTS_WITH_DIFFERENT_CODE;
            case Exists -> TransferResult.EXISTS;
            case IdAlreadyFailed -> TransferResult.ID_ALREADY_FAILED;
            case FlagsAreMutuallyExclusive -> TransferResult.FLAGS_ARE_MUTUALLY_EXCLUSIVE;
            case DebitAccountIdMustNotBeZero -> TransferResult.DEBIT_ACCOUNT_ID_MUST_NOT_BE_ZERO;
            case DebitAccountIdMustNotBeIntMax -> TransferResult.DEBIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX;
            case CreditAccountIdMustNotBeZero -> TransferResult.CREDIT_ACCOUNT_ID_MUST_NOT_BE_ZERO;
            case CreditAccountIdMustNotBeIntMax -> TransferResult.CREDIT_ACCOUNT_ID_MUST_NOT_BE_INT_MAX;
            case AccountsMustBeDifferent -> TransferResult.ACCOUNTS_MUST_BE_DIFFERENT;
            case PendingIdMustBeZero -> TransferResult.PENDING_ID_MUST_BE_ZERO;
            case PendingIdMustNotBeZero -> TransferResult.PENDING_ID_MUST_NOT_BE_ZERO;
            case PendingIdMustNotBeIntMax -> TransferResult.PENDING_ID_MUST_NOT_BE_INT_MAX;
            case PendingIdMustBeDifferent -> TransferResult.PENDING_ID_MUST_BE_DIFFERENT;
            case TimeoutReservedForPendingTransfer -> TransferResult.TIMEOUT_RESERVED_FOR_PENDING_TRANSFER;
            case ClosingTransferMustBePending -> TransferResult.CLOSING_TRANSFER_MUST_BE_PENDING;
            case AmountMustNotBeZero -> TransferResult.AMOUNT_MUST_NOT_BE_ZERO;
            case LedgerMustNotBeZero -> TransferResult.LEDGER_MUST_NOT_BE_ZERO;
            case CodeMustNotBeZero -> TransferResult.CODE_MUST_NOT_BE_ZERO;
            case DebitAccountNotFound -> TransferResult.DEBIT_ACCOUNT_NOT_FOUND;
            case CreditAccountNotFound -> TransferResult.CREDIT_ACCOUNT_NOT_FOUND;
            case AccountsMustHaveTheSameLedger -> TransferResult.ACCOUNTS_MUST_HAVE_THE_SAME_LEDGER;
            case TransferMustHaveTheSameLedgerAsAccounts ->
                TransferResult.TRANSFER_MUST_HAVE_THE_SAME_LEDGER_AS_ACCOUNTS;
            case PendingTransferNotFound -> TransferResult.PENDING_TRANSFER_NOT_FOUND;
            case PendingTransferNotPending -> TransferResult.PENDING_TRANSFER_NOT_PENDING;
            case PendingTransferHasDifferentDebitAccountId ->
                TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_DEBIT_ACCOUNT_ID;
            case PendingTransferHasDifferentCreditAccountId ->
                TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_CREDIT_ACCOUNT_ID;
            case PendingTransferHasDifferentLedger -> TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_LEDGER;
            case PendingTransferHasDifferentCode -> TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_CODE;
            case ExceedsPendingTransferAmount -> TransferResult.EXCEEDS_PENDING_TRANSFER_AMOUNT;
            case PendingTransferHasDifferentAmount -> TransferResult.PENDING_TRANSFER_HAS_DIFFERENT_AMOUNT;
            case PendingTransferAlreadyPosted -> TransferResult.PENDING_TRANSFER_ALREADY_POSTED;
            case PendingTransferAlreadyVoided -> TransferResult.PENDING_TRANSFER_ALREADY_VOIDED;
            case PendingTransferExpired -> TransferResult.PENDING_TRANSFER_EXPIRED;
            case ImportedEventTimestampMustNotRegress -> TransferResult.IMPORTED_EVENT_TIMESTAMP_MUST_NOT_REGRESS;
            case ImportedEventTimestampMustPostdateDebitAccount ->
                TransferResult.IMPORTED_EVENT_TIMESTAMP_MUST_POSTDATE_DEBIT_ACCOUNT;
            case ImportedEventTimestampMustPostdateCreditAccount ->
                TransferResult.IMPORTED_EVENT_TIMESTAMP_MUST_POSTDATE_CREDIT_ACCOUNT;
            case ImportedEventTimeoutMustBeZero -> TransferResult.IMPORTED_EVENT_TIMEOUT_MUST_BE_ZERO;
            case DebitAccountAlreadyClosed -> TransferResult.DEBIT_ACCOUNT_ALREADY_CLOSED;
            case CreditAccountAlreadyClosed -> TransferResult.CREDIT_ACCOUNT_ALREADY_CLOSED;
            case OverflowsDebitsPending -> TransferResult.OVERFLOWS_DEBITS_PENDING;
            case OverflowsCreditsPending -> TransferResult.OVERFLOWS_CREDITS_PENDING;
            case OverflowsDebitsPosted -> TransferResult.OVERFLOWS_DEBITS_POSTED;
            case OverflowsCreditsPosted -> TransferResult.OVERFLOWS_CREDITS_POSTED;
            case OverflowsDebits -> TransferResult.OVERFLOWS_DEBITS;
            case OverflowsCredits -> TransferResult.OVERFLOWS_CREDITS;
            case OverflowsTimeout -> TransferResult.OVERFLOWS_TIMEOUT;
            case ExceedsCredits -> TransferResult.EXCEEDS_CREDITS;
            case ExceedsDebits -> TransferResult.EXCEEDS_DEBITS;
        };
    }
}
