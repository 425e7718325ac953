package io.pagora.settlement.invariants;

import io.pagora.kernel.Id128;

/** One posted movement of money outside payments (a funding): debit → credit. */
public record Movement(Id128 debit, Id128 credit, long amountCentavos) {}
