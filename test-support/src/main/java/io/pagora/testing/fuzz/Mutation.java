package io.pagora.testing.fuzz;

import java.util.function.UnaryOperator;

/**
 * One way to break a request. Applied to a well-formed request it breaks exactly one thing; the
 * randomized phase composes two or three, so each label names every change made.
 */
record Mutation(String label, UnaryOperator<FuzzRequest> change) {

    FuzzRequest applyTo(FuzzRequest request) {
        FuzzRequest changed = change.apply(request);
        String mutation = request.mutation().isEmpty() ? label : request.mutation() + " + " + label;
        return changed.withMutation(mutation);
    }
}
