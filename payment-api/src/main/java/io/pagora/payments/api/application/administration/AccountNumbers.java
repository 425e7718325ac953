package io.pagora.payments.api.application.administration;

/** Allocates customer account numbers when the bank does not choose one. */
public interface AccountNumbers {

    /** A positive number, unguessable by another bank; may (rarely) be taken already: the ledger says so. */
    long next();
}
