// The k6 options of each SCENARIO: its executor and its thresholds.
import exec from 'k6/execution';
import { config } from './config.js';
import { tlsOptions } from './identity.js';

// A threshold that always holds: it only makes k6 keep (and summarize) the tagged sub-metric.
const TRACK_TREND = ['max>=0'];
const TRACK_RATE = ['rate>=0'];
const TRACK_COUNT = ['count>=0'];

/** stress: the rate of each step, START_RATE, +STEP_RATE, ... up to MAX_RATE. */
export function stressSteps() {
  const steps = [];
  for (let r = config.startRate; r <= config.maxRate; r += config.stepRate) {
    steps.push(r);
  }
  if (steps[steps.length - 1] !== config.maxRate) {
    steps.push(config.maxRate);
  }
  return steps;
}

/** spike: [name, seconds, rate] of each phase. */
export function spikePhases() {
  return [['base', config.baseSeconds, config.rate], ['spike', config.spikeSeconds, config.spikeRate],
    ['recovery', config.recoverySeconds, config.rate]];
}

/** The tags of this iteration: the stress step or spike phase it belongs to, by the time it starts. */
export function iterationTags() {
  if (config.scenario !== 'stress' && config.scenario !== 'spike') {
    return {};
  }
  const elapsedSeconds = (Date.now() - exec.scenario.startTime) / 1000;
  if (config.scenario === 'stress') {
    const steps = stressSteps();
    const step = Math.min(steps.length - 1, Math.floor(elapsedSeconds / config.stepSeconds));
    return { rate_step: String(steps[step]) };
  }
  let end = 0;
  for (const [phase, seconds] of spikePhases()) {
    end += seconds;
    if (elapsedSeconds < end) {
      return { phase };
    }
  }
  return { phase: 'recovery' };
}

/** The WARMUP scenario's name (its payments' keys and the tag of its metrics). */
export const WARMUP_SCENARIO = 'warmup';

/** How long the warm-up's last calls may take after it ends: a call's deadline, and a second. */
function warmupStopSeconds() {
  return Math.ceil(config.requestTimeoutSeconds + 1);
}

/** When the judged scenario starts: after the warm-up and its stop, or at once. */
export function judgedStartSeconds() {
  return config.warmupSeconds > 0 ? config.warmupSeconds + warmupStopSeconds() : 0;
}

/**
 * The name of a metric as judged: with a warm-up, its values in the run's own scenario only (k6 tags every metric of
 * an iteration with its scenario's name).
 */
export function judged(name) {
  return config.warmupSeconds > 0 ? `${name}{scenario:${config.scenario}}` : name;
}

/** How long the load itself lasts (without the graceful stop). */
export function loadSeconds() {
  switch (config.scenario) {
    case 'stress':
      return stressSteps().length * config.stepSeconds;
    case 'spike':
      return spikePhases().reduce((sum, [, seconds]) => sum + seconds, 0);
    default:
      return config.durationSeconds;
  }
}

export function buildOptions() {
  const gracefulStop = `${Math.ceil(config.requestTimeoutSeconds + config.verifyTimeoutSeconds + 5)}s`;
  const arrival = {
    timeUnit: '1s',
    preAllocatedVUs: config.preAllocatedVUs,
    maxVUs: config.maxVUs,
    gracefulStop,
  };
  let scenario;
  switch (config.scenario) {
    case 'smoke':
      scenario = { executor: 'per-vu-iterations', vus: 1, iterations: config.smokeIterations, maxDuration: '5m',
        exec: 'smoke', gracefulStop };
      break;
    case 'load':
    case 'soak':
    case 'hot-account':
      scenario = Object.assign({ executor: 'constant-arrival-rate', rate: config.rate,
        duration: `${config.durationSeconds}s`, exec: 'payments' }, arrival);
      break;
    case 'bulk':
      scenario = Object.assign({ executor: 'constant-arrival-rate', rate: config.rate,
        duration: `${config.durationSeconds}s`, exec: 'batches' }, arrival);
      break;
    case 'stress': {
      // Jump to each step's rate and hold it for STEP_DURATION: every step is a clean constant rate.
      const stages = [];
      for (const r of stressSteps()) {
        stages.push({ duration: '0s', target: r }, { duration: `${config.stepSeconds}s`, target: r });
      }
      scenario = Object.assign({ executor: 'ramping-arrival-rate', startRate: config.startRate, stages,
        exec: 'payments' }, arrival);
      break;
    }
    case 'spike': {
      const stages = [];
      for (const [, seconds, r] of spikePhases()) {
        stages.push({ duration: '0s', target: r }, { duration: `${seconds}s`, target: r });
      }
      scenario = Object.assign({ executor: 'ramping-arrival-rate', startRate: config.rate, stages,
        exec: 'payments' }, arrival);
      break;
    }
    case 'observe':
      scenario = null; // the operator's run: only the monitor below, for DURATION
      break;
    case 'scan':
      // Two arrival rates of the run's bank: the scan (none with SCAN_RATE=0) and its honest payers' look-ups.
      scenario = null;
      break;
    default:
      throw new Error(`no options for scenario ${config.scenario}`);
  }
  const scenarios = {};
  const startTime = `${judgedStartSeconds()}s`;
  if (config.warmupSeconds > 0) {
    // From a tenth of RATE up to RATE: at RATE from the first second, a cold platform's answers slow to seconds,
    // k6 starts VUs up to MAX_VUS, each opens a connection, and the TLS handshakes slow the answers further. It ends
    // before the judged scenario starts, so that one gets the warm-up's VUs, and their connections, back.
    scenarios[WARMUP_SCENARIO] = Object.assign({ executor: 'ramping-arrival-rate',
      startRate: Math.max(1, Math.ceil(config.rate / 10)), stages: [{ duration: `${config.warmupSeconds}s`, target: config.rate }],
      exec: 'payments' }, arrival, { gracefulStop: `${warmupStopSeconds()}s`, tags: { pagora_scenario: WARMUP_SCENARIO } });
  }
  if (scenario !== null) {
    scenario.tags = { pagora_scenario: config.scenario };
    scenario.startTime = startTime;
    scenarios[config.scenario] = scenario;
  }
  if (config.scenario === 'scan') {
    if (config.scanRate > 0) {
      scenarios.scan = Object.assign({ executor: 'constant-arrival-rate', rate: config.scanRate,
        duration: `${config.durationSeconds}s`, exec: 'scan', tags: { pagora_scenario: 'scan' } }, arrival);
    }
    scenarios.honest = Object.assign({ executor: 'constant-arrival-rate', rate: config.honestRate,
      duration: `${config.durationSeconds}s`, exec: 'honest', tags: { pagora_scenario: 'honest' } }, arrival);
  } else if (config.scenario !== 'smoke') {
    // One more VU samples reporting's GET /stats every second while the load runs: settled/s and the
    // backlog of open payments as the platform sees them, per stress step or spike phase.
    scenarios.monitor = { executor: 'constant-vus', vus: 1, duration: `${Math.ceil(loadSeconds())}s`,
      exec: 'monitor', gracefulStop: '5s', startTime, tags: { pagora_scenario: 'monitor' } };
  }
  return Object.assign({
    scenarios,
    thresholds: thresholds(),
    summaryTrendStats: ['avg', 'min', 'med', 'p(50)', 'p(90)', 'p(95)', 'p(99)', 'max', 'count'],
    // setup opens up to ACCOUNTS_PER_BANK accounts of the run's bank; teardown waits up to SETTLE_TIMEOUT.
    setupTimeout: '300s',
    teardownTimeout: `${Math.ceil(config.settleTimeoutSeconds + 120)}s`,
  }, tlsOptions());
}

function thresholds() {
  // Correctness: must hold in every scenario, also under stress.
  const t = {
    unexpected_answers: ['count<1'], // a well-formed payment refused, a duplicate with another id, ...
    settle_missing: ['count<1'], // k6 was given more payment ids than the read model made final
    settle_platform_missing: ['count<1'], // payment-api accepted more than the read model made final
    settle_unexpected_final: ['count<1'], // more final states than payments: a duplicate
    settle_integrity_alarms: ['count<1'], // reporting saw a second final state or a contradicting event
    verify_wrong: ['count<1'], // a sampled payment is not what was sent, or not exactly once final
  };
  const latency = config.scenario === 'bulk' ? 'batch_latency' : 'accept_latency';
  const p95 = config.scenario === 'bulk' ? config.batchP95Ms : config.acceptP95Ms;
  const p99 = config.scenario === 'bulk' ? config.batchP99Ms : config.acceptP99Ms;
  const slo = [`p(95)<${p95}`, `p(99)<${p99}`];
  const errors = [`rate<${config.errorRateMax}`];
  switch (config.scenario) {
    case 'observe':
      break; // sends no payment: only the correctness thresholds
    case 'scan':
      // The scan was stopped by the bucket at some point (a scan never refused saw no limit), and the honest
      // look-ups of a bank that does not scan are answered (the scanning bank's own payers are refused with it).
      if (config.scanRate > 0) {
        t.scan_look_ups_refused = ['count>0'];
        t.honest_look_up_errors = TRACK_RATE;
      } else {
        t.honest_look_up_errors = [`rate<${config.errorRateMax}`];
      }
      t.honest_look_up_latency = TRACK_TREND;
      t.scan_look_ups_missing = TRACK_COUNT;
      t.honest_look_ups_refused = TRACK_COUNT;
      break;
    case 'stress':
      // The SLO is expected to break here: per step it is only tracked, and the summary names the
      // first step where it broke (the breaking point).
      for (const r of stressSteps()) {
        t[`accept_latency{rate_step:${r}}`] = TRACK_TREND;
        t[`payment_errors{rate_step:${r}}`] = TRACK_RATE;
        t[`payments_accepted{rate_step:${r}}`] = TRACK_COUNT;
        t[`monitor_settled_per_s{rate_step:${r}}`] = TRACK_TREND;
        t[`monitor_final_per_s{rate_step:${r}}`] = TRACK_TREND;
        t[`monitor_open{rate_step:${r}}`] = TRACK_TREND;
      }
      break;
    case 'spike':
      // Errors stay rare throughout; the latency SLO holds before the spike and after it (recovery).
      t.payment_errors = errors;
      for (const [phase] of spikePhases()) {
        t[`accept_latency{phase:${phase}}`] = phase === 'spike' ? TRACK_TREND : slo;
        t[`payment_errors{phase:${phase}}`] = TRACK_RATE;
        t[`payments_accepted{phase:${phase}}`] = TRACK_COUNT;
        t[`monitor_settled_per_s{phase:${phase}}`] = TRACK_TREND;
        t[`monitor_final_per_s{phase:${phase}}`] = TRACK_TREND;
        t[`monitor_open{phase:${phase}}`] = TRACK_TREND;
      }
      break;
    default:
      t[judged('payment_errors')] = errors;
      t[judged('http_req_failed')] = errors;
      t[judged('checks')] = [`rate>${1 - config.errorRateMax}`];
      t[judged(latency)] = slo;
      if (config.scenario !== 'smoke') {
        // The arrival rate was held: k6 dropped (could not start, all VUs busy) at most that share.
        t[judged('dropped_iterations')] = [`count<=${Math.floor(config.errorRateMax * config.rate * config.durationSeconds)}`];
      }
      if (config.warmupSeconds > 0) {
        // A just-started platform may refuse (429) or time out in the warm-up: shown, not judged. The report still
        // checks every payment the warm-up sent; sampled ones are verified (verify_wrong) in both scenarios.
        delete t.unexpected_answers;
        t[judged('unexpected_answers')] = ['count<1'];
        for (const name of ['accept_latency', 'payment_errors', 'dropped_iterations', 'unexpected_answers']) {
          t[`${name}{scenario:${WARMUP_SCENARIO}}`] = name === 'accept_latency' ? TRACK_TREND
            : name === 'payment_errors' ? TRACK_RATE : TRACK_COUNT;
        }
      }
  }
  return t;
}
