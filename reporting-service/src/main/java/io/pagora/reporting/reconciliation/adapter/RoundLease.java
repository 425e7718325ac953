package io.pagora.reporting.reconciliation.adapter;

/**
 * Whether this instance may run reconciliation rounds now. With several reporting-service instances, one runs the
 * online reconciliation and the others stand by (docs/scale-out.md): two would judge every payment twice and report
 * every mismatch twice.
 */
interface RoundLease {

    /** A lease always held: one instance, or a test. */
    RoundLease ALWAYS = new RoundLease() {
        @Override
        public boolean held() {
            return true;
        }

        @Override
        public void release() {}
    };

    /** True when this instance holds the lease now (acquiring it if free); never throws. */
    boolean held();

    /** Gives the lease up (the service stops). */
    void release();
}
