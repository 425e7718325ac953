// Pagora load suite: one script, the scenario chosen with -e SCENARIO=<name> (k6/README.md):
//
//   smoke        1 VU, a dozen payments of every kind and a small batch, every id followed to its outcome
//   load         constant arrival RATE/s (200) for DURATION (60s)
//   stress       ramping arrival START_RATE (100) +STEP_RATE (100) every STEP_DURATION (15s) up to MAX_RATE
//                (1500); the summary names the breaking point (first step where the SLO broke)
//   spike        RATE for BASE_DURATION, SPIKE_RATE for SPIKE_DURATION, RATE for RECOVERY_DURATION
//   soak         constant arrival RATE (100) for DURATION (30m)
//   bulk         RATE (20) POST /payments/batch per second of BATCH_SIZE (500) payments for DURATION (30s)
//   hot-account  like load, but HOT_SHARE (0.9) of the payments debit HOT_ACCOUNTS (3) accounts
//   observe      the operator's view next to a bank's run: /stats each second for DURATION, then the
//                platform-wide settlement check (PARTICIPANT=operator)
//   scan         the run's bank scans the key directory: SCAN_RATE (500) look-ups/s of random keys, each for a new
//                end user, next to HONEST_RATE (50) look-ups/s of real keys by its payers, for DURATION; the scan
//                must be refused once the bank's bucket empties (run it at once as another bank with SCAN_RATE=0:
//                that bank's look-ups are the ones the scan must not slow)
//
// Over mutual TLS, as ONE participant per run (lib/identity.js, k6/README.md "Identity"): a bank
// (PARTICIPANT=ispb-NNNNNNNN, default the first bank of ACCOUNTS_FILE) pays from its own customers to any
// bank's; the operator (PARTICIPANT=operator) registers banks (k6/banks.js) and observes. TLS_DIR holds the
// certificates; k6 trusts the local CA through SSL_CERT_FILE:
//
//   SSL_CERT_FILE=var/tls/ca.crt var/bin/k6 run -e SCENARIO=load -e RATE=500 -e DURATION=60s k6/pagora.js
//
// setup() opens the bank's funded accounts through payment-api (or reads ACCOUNTS_FILE) and takes a
// baseline; teardown() waits (SETTLE_TIMEOUT) until every payment the run can see is final in the
// reporting-service and fails the run if one is missing or duplicated (lib/settlement.js); handleSummary()
// prints accepted/s, settled/s, accept and accept→settled latency, outcomes, and writes a JSON summary.
// Every knob is in lib/config.js. Loopback targets only unless ALLOW_REMOTE=1.
import exec from 'k6/execution';
import { config } from './lib/config.js';
import { buildOptions, iterationTags } from './lib/scenarios.js';
import { prepareParticipants } from './lib/setup.js';
import { caller } from './lib/identity.js';
import { iterationIndex, sendBatch, sendOne } from './lib/payments.js';
import { awaitSettlement, baseline, monitorStats } from './lib/settlement.js';
import { summarize } from './lib/summary.js';
import { honestOne, scanOne } from './lib/scan.js';

export const options = buildOptions();

export function setup() {
  const runId = config.runId || `${Date.now().toString(36)}`;
  const participants = config.scenario === 'observe' ? observer() : prepareParticipants(runId);
  // Last, so that the baseline is taken right before the load starts.
  const base = baseline();
  return { runId, participants, base };
}

// observe sends nothing: it is the operator's platform-wide view of a bank's run.
function observer() {
  if (!caller.operator) {
    throw new Error(`SCENARIO=observe reads /stats and the services' metrics, the operator's only: PARTICIPANT=operator (not ${caller.principal})`);
  }
  return null;
}

/** load, stress, spike, soak, hot-account: one payment per iteration. */
export function payments(data) {
  const index = iterationIndex();
  if (config.payments > 0 && index >= config.payments && exec.scenario.name === config.scenario) {
    return; // PAYMENTS caps the run; the arrival schedule rounds up to whole seconds
  }
  sendOne(data, index, iterationTags());
}

/** bulk: one batch per iteration. */
export function batches(data) {
  sendBatch(data, iterationIndex(), {});
}

/** smoke: every kind of payment (cycled by index), plus one batch at the start. */
export function smoke(data) {
  const index = iterationIndex();
  if (index === 0) {
    // Batch indexes far above the single payments' so their keys never meet.
    sendBatch(data, 1000000, {});
  }
  sendOne(data, index, {});
}

/** scan: one look-up of a random key, for a new end user. */
export function scan() {
  scanOne(iterationIndex());
}

/** scan: one honest look-up of a real key by one of the run's payers. */
export function honest(data) {
  honestOne(data, iterationIndex());
}

/** Samples reporting's /stats once a second while the load runs (settled/s, open backlog). */
export function monitor() {
  monitorStats(iterationTags());
}

export function teardown(data) {
  if (config.scenario === 'scan') {
    return; // nothing was paid
  }
  awaitSettlement(data.base);
}

export function handleSummary(data) {
  return summarize(data);
}
