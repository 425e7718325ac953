// Every knob of the suite, read once from the environment (`k6 run -e NAME=value`), with defaults.
// Nothing else in k6/ reads __ENV: the summary prints this object, so a run says how it was made.

export const SCENARIOS = ['smoke', 'load', 'stress', 'spike', 'soak', 'bulk', 'hot-account', 'observe', 'scan'];

const scenario = text('SCENARIO', 'smoke');
if (!SCENARIOS.includes(scenario)) {
  throw new Error(`SCENARIO must be one of ${SCENARIOS.join(', ')}; got '${scenario}'`);
}

// Per-scenario defaults: the arrival RATE is payments/s, except in bulk where it is batches/s.
// scan's own rates are SCAN_RATE and HONEST_RATE; its RATE is unused.
const DEFAULT_RATE = { smoke: 1, load: 200, stress: 100, spike: 100, soak: 100, bulk: 20, 'hot-account': 200, observe: 1, scan: 1 };
const DEFAULT_DURATION = { smoke: '0s', load: '60s', stress: '0s', spike: '0s', soak: '30m', bulk: '30s', 'hot-account': '60s', observe: '60s', scan: '60s' };

const rate = int('RATE', DEFAULT_RATE[scenario], 1, 20000);
// PAYMENTS (single-payment scenarios only) caps the run at that many payments; with it, the load
// lasts PAYMENTS / RATE seconds unless DURATION says otherwise (the demo's knob).
const payments = int('PAYMENTS', 0, 0, 10000000);
// WARMUP (load, soak, hot-account): first a tenth of RATE rising to RATE over this long, in a scenario of its own,
// `warmup`, tracked but not judged; the run's own scenario starts once the warm-up's calls are answered or timed out, on the same VUs. k6
// keeps each VU's connection across scenarios, so the judged run opens no TLS connection the warm-up did not: a
// just-started platform spent about 40 % of payment-api's CPU in TLS handshakes when the two were separate k6 runs.
const WARMED = ['load', 'soak', 'hot-account'];
const warmupSeconds = WARMED.includes(scenario) ? seconds('WARMUP', '0s') : 0;
const durationSeconds = __ENV.DURATION
  ? seconds('DURATION', DEFAULT_DURATION[scenario])
  : payments > 0 && !['smoke', 'bulk', 'stress', 'spike'].includes(scenario)
    ? Math.ceil(payments / rate)
    : seconds('DURATION', DEFAULT_DURATION[scenario]);

export const config = Object.freeze({
  scenario,
  // Targets. Loopback only unless ALLOW_REMOTE=1: the suite creates banks and moves (test) money.
  // payment-api and reporting-service speak mutual TLS only; clearing-service has no participant API.
  // API_URL may list several payment-api instances (comma-separated, the scaled platform's two): each VU sends to
  // one (by VU number) and, when its instance does not answer at all, sends the same request (same key: an
  // idempotent replay) to the next (lib/payments.js).
  apiUrls: urls('API_URL', __ENV.BASE_URL || 'https://127.0.0.1:8080'),
  apiUrl: pick(urls('API_URL', __ENV.BASE_URL || 'https://127.0.0.1:8080')),
  reportingUrl: url('REPORTING_URL', 'https://127.0.0.1:8082'),
  clearingUrl: url('CLEARING_URL', 'http://127.0.0.1:8081'),
  // Identity (lib/identity.js): the participant this run is (operator | ispb-NNNNNNNN; empty: the first
  // bank of ACCOUNTS_FILE, else ispb-(BANK_ISPB_BASE+1)) and the certificates' directory (the launcher's
  // var/tls layout; relative paths are relative to k6/lib/, so pass an absolute one).
  participant: text('PARTICIPANT', ''),
  tlsDir: text('TLS_DIR', '../../var/tls').replace(/\/+$/, ''),
  allowRemote: flag('ALLOW_REMOTE', false),
  runId: text('RUN_ID', ''), // empty: setup() makes one (every VU must share it)

  // Arrival model.
  rate,
  durationSeconds,
  warmupSeconds,
  payments,
  // VUs: enough up front for ~1 s of answers at the peak rate (k6 drops iterations while it starts more,
  // and a cold or busy platform answers slowly), at most MAX_VUS in flight (a bound on what an
  // overloaded platform is sent). A batch takes longer than one payment, and its sampled ids
  // (VERIFY_SHARE) keep its VU until they are final (up to VERIFY_TIMEOUT): bulk keeps more VUs per request.
  preAllocatedVUs: int('PRE_VUS', clamp(Math.ceil(peakRate() * (scenario === 'bulk' ? 25 : 1)), 10, 1000), 1, 5000),
  maxVUs: int('MAX_VUS', clamp(peakRate() * (scenario === 'bulk' ? 40 : 2), 50, 2000), 1, 5000),
  requestTimeoutSeconds: seconds('REQUEST_TIMEOUT', '10s'),
  // stress: START_RATE, +STEP_RATE every STEP_DURATION, up to MAX_RATE.
  startRate: int('START_RATE', rate, 1, 20000),
  stepRate: int('STEP_RATE', 100, 1, 20000),
  maxRate: int('MAX_RATE', 1500, 1, 20000),
  stepSeconds: seconds('STEP_DURATION', '15s'),
  // spike: RATE for BASE_DURATION, SPIKE_RATE for SPIKE_DURATION, RATE again for RECOVERY_DURATION.
  spikeRate: int('SPIKE_RATE', rate * 10, 1, 20000),
  baseSeconds: seconds('BASE_DURATION', '20s'),
  spikeSeconds: seconds('SPIKE_DURATION', '15s'),
  recoverySeconds: seconds('RECOVERY_DURATION', '30s'),
  // bulk: BATCH_SIZE payments per POST /payments/batch (the API takes at most 1000).
  batchSize: int('BATCH_SIZE', scenario === 'smoke' ? 5 : 500, 1, 1000),
  // hot-account: HOT_SHARE of the payments debit one of HOT_ACCOUNTS accounts.
  hotAccounts: int('HOT_ACCOUNTS', 3, 1, 1000),
  hotShare: share('HOT_SHARE', scenario === 'hot-account' ? 0.9 : 0),
  // smoke: this many iterations of one VU, each kind of payment at least once.
  smokeIterations: int('SMOKE_ITERATIONS', 12, 4, 1000),

  // What is sent. Shares are of payments (bulk: of batch items).
  dupShare: share('DUP_SHARE', 0.02), // re-sent with the same key and body: must answer the same id
  conflictShare: share('CONFLICT_SHARE', 0.005), // re-sent with the same key, other amount: must be refused
  nsfShare: share('NSF_SHARE', 0.01), // deliberately insufficient funds: accepted, then REJECTED
  keyShare: share('KEY_SHARE', 0.2), // the payee named by its PIX key, after a look-up (docs/directory.md)
  qrShare: share('QR_SHARE', 0.05), // the payee named by a static BR Code of its key, after a look-up
  // scan: look-ups/s of random keys, each for a new end user (0: none, the honest bank of a side-by-side run),
  // and the honest payers' look-ups/s of real keys.
  scanRate: int('SCAN_RATE', 500, 0, 100000),
  honestRate: int('HONEST_RATE', 50, 1, 100000),
  verifyShare: share('VERIFY_SHARE', scenario === 'smoke' ? 1 : 0.01), // followed until final, per id
  verifyTimeoutSeconds: seconds('VERIFY_TIMEOUT', '20s'),
  amountMinCentavos: int('AMOUNT_MIN_CENTAVOS', 100, 1, 1e10),
  amountMaxCentavos: int('AMOUNT_MAX_CENTAVOS', 5000, 1, 1e10),
  logAnswers: flag('LOG_ANSWERS', false), // one console line per answer (infra/local/pagora's report reads them)

  // Participants: from ACCOUNTS_FILE (seeded by infra/local/pagora), else the run's bank opens its own in
  // setup() (BANKS banks from BANK_ISPB_BASE+1 registered by the operator with k6/banks.js).
  accountsFile: text('ACCOUNTS_FILE', ''),
  banks: int('BANKS', 4, 1, 100),
  accountsPerBank: int('ACCOUNTS_PER_BANK', 50, 2, 10000),
  bankIspbBase: int('BANK_ISPB_BASE', 60000000, 1, 99999000),
  fundingCentavos: int('FUNDING_CENTAVOS', 10000000, 1, 1e14), // R$ 100,000 per customer
  hotFundingCentavos: int('HOT_FUNDING_CENTAVOS', 1000000000, 1, 1e14), // R$ 10 million per hot account
  reserveFundingCentavos: int('RESERVE_FUNDING_CENTAVOS', 1000000000000, 1, 1e14), // R$ 10 billion per bank

  // Thresholds (SLO). Accept latency is k6's: request sent -> answer received.
  acceptP95Ms: int('ACCEPT_P95_MS', 250, 1, 600000),
  acceptP99Ms: int('ACCEPT_P99_MS', 500, 1, 600000),
  batchP95Ms: int('BATCH_P95_MS', 2000, 1, 600000),
  batchP99Ms: int('BATCH_P99_MS', 5000, 1, 600000),
  errorRateMax: share('ERROR_RATE_MAX', 0.01),
  // stress: a step is saturated when fewer than this share of its scheduled payments were accepted.
  achievedShareMin: share('ACHIEVED_SHARE_MIN', 0.95),

  // Settlement: teardown waits at most SETTLE_TIMEOUT for every accepted payment to be final.
  settleTimeoutSeconds: seconds('SETTLE_TIMEOUT', scenario === 'stress' || scenario === 'soak' ? '600s' : '180s'),
  settlePollSeconds: seconds('SETTLE_POLL', '1s'),

  // The JSON summary (handleSummary); relative paths are relative to k6's working directory.
  summaryJson: text('SUMMARY_JSON', ''),
});

if (config.amountMinCentavos > config.amountMaxCentavos) {
  throw new Error('AMOUNT_MIN_CENTAVOS must not exceed AMOUNT_MAX_CENTAVOS');
}
if (config.dupShare + config.conflictShare + config.nsfShare > 1) {
  throw new Error('DUP_SHARE + CONFLICT_SHARE + NSF_SHARE must not exceed 1');
}
if (config.keyShare + config.qrShare > 1) {
  throw new Error('KEY_SHARE + QR_SHARE must not exceed 1');
}
if (config.scenario === 'stress' && config.maxRate < config.startRate) {
  throw new Error(`MAX_RATE (${config.maxRate}) must be at least START_RATE (${config.startRate})`);
}
if (config.maxVUs < config.preAllocatedVUs) {
  throw new Error(`MAX_VUS (${config.maxVUs}) must be at least PRE_VUS (${config.preAllocatedVUs})`);
}
for (const [name, target] of [...config.apiUrls.map((api) => ['API_URL', api]), ['REPORTING_URL', config.reportingUrl],
  ['CLEARING_URL', config.clearingUrl]]) {
  if (!config.allowRemote && !isLoopback(target)) {
    throw new Error(`${name}=${target} is not a loopback address (127.0.0.0/8, localhost, [::1]); `
      + 'this suite creates banks and sends payments: set ALLOW_REMOTE=1 only for a platform you own');
  }
}

export function isLoopback(target) {
  const match = /^https?:\/\/([^/:]+|\[[^\]]+\])(:[0-9]{1,5})?\/?$/.exec(target);
  if (!match) {
    return false;
  }
  const host = match[1].toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}$/.test(host);
}

// The highest arrival rate the scenario reaches (VU sizing).
function peakRate() {
  if (scenario === 'stress') {
    return int('MAX_RATE', 1500, 1, 20000);
  }
  if (scenario === 'spike') {
    return int('SPIKE_RATE', rate * 10, 1, 20000);
  }
  return rate;
}

function text(name, fallback) {
  const value = __ENV[name];
  return value === undefined || value === '' ? fallback : value;
}

function url(name, fallback) {
  const value = text(name, fallback).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(value)) {
    throw new Error(`${name} must be scheme://host:port without a path, got '${value}'`);
  }
  return value;
}

function urls(name, fallback) {
  return text(name, fallback).split(',').map((one, i) => url(`${name}[${i}]`, one));
}

// This VU's instance: VUs spread over the instances (__VU is 0 in setup and teardown).
function pick(list) {
  return list[(typeof __VU === 'number' ? __VU : 0) % list.length];
}

function int(name, fallback, min, max) {
  const raw = text(name, undefined);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer in ${min}..${max}, got '${raw}'`);
  }
  return value;
}

function share(name, fallback) {
  const raw = text(name, undefined);
  const value = raw === undefined ? fallback : Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    throw new Error(`${name} must be a number in 0..1, got '${raw}'`);
  }
  return value;
}

function flag(name, fallback) {
  const raw = text(name, undefined);
  if (raw === undefined) {
    return fallback;
  }
  if (!['0', '1', 'true', 'false'].includes(raw)) {
    throw new Error(`${name} must be 1/0/true/false, got '${raw}'`);
  }
  return raw === '1' || raw === 'true';
}

// '90' (seconds), '500ms', '30s', '2m', '1h' -> seconds.
function seconds(name, fallback) {
  const raw = text(name, fallback);
  const match = /^([0-9]+(?:\.[0-9]+)?)(ms|s|m|h)?$/.exec(raw);
  if (!match) {
    throw new Error(`${name} must be a duration like 30s, 2m, 500ms; got '${raw}'`);
  }
  const factor = { ms: 0.001, s: 1, m: 60, h: 3600 }[match[2] || 's'];
  const value = Number(match[1]) * factor;
  if (value > 7 * 24 * 3600) {
    throw new Error(`${name} must be at most a week, got '${raw}'`);
  }
  return value;
}

function clamp(value, min, max) {
  return Math.max(min, Math.min(max, value));
}
