package io.pagora.payments.api.application;

/** Allocates customer account numbers, unique across API instances. */
public interface AccountNumbers {

    /** A positive number never handed out before. */
    long next();
}
