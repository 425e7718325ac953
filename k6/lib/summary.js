// The end-of-test summary: the figures of the run as text on stdout and as a JSON file (SUMMARY_JSON,
// default k6/results/<scenario>-<time>-summary.json, see defaultSummaryPath). The JSON keeps k6's own `metrics` too, so tools that read
// k6 summaries (local-runtime's DemoReport) can read this file.
import { config } from './config.js';
import { WARMUP_SCENARIO, judged, spikePhases, stressSteps } from './scenarios.js';
import { caller } from './identity.js';

export function summarize(data) {
  const m = data.metrics;
  const setup = data.setup_data || {};
  const figures = collectFigures(m);
  const steps = config.scenario === 'stress' ? stressAnalysis(m) : null;
  const phases = config.scenario === 'spike' ? spikeAnalysis(m) : null;
  const thresholds = thresholdResults(m);
  const failedChecks = failingChecks(data.root_group);
  const passed = thresholds.every((t) => t.ok);
  const report = {
    scenario: config.scenario,
    runId: setup.runId || null,
    participant: caller.principal,
    result: passed ? 'PASS' : 'FAIL',
    schedule: scheduleText(),
    participants: setup.participants ? participantsText(setup.participants) : null,
    figures,
    stress: steps,
    spike: phases,
    thresholds,
    failedChecks,
    config,
    metrics: m,
  };
  const file = config.summaryJson || defaultSummaryPath();
  const out = { stdout: text(report, file) };
  out[file] = JSON.stringify(report, null, 2);
  return out;
}

function collectFigures(m) {
  const count = (name) => value(m, name, 'count') || 0; // a counter never added to is absent
  const accepted = count('payments_accepted');
  const firstAccept = value(m, 'accept_epoch_ms', 'min');
  const lastAccept = value(m, 'accept_epoch_ms', 'max');
  const lastFinal = value(m, 'settle_last_final_epoch_ms', 'value');
  const acceptSpan = firstAccept !== null && lastAccept !== null ? (lastAccept - firstAccept) / 1000 : null;
  const finalSpan = firstAccept !== null && lastFinal !== null && lastFinal > firstAccept ? (lastFinal - firstAccept) / 1000 : null;
  const platformAccepted = value(m, 'platform_accepted', 'value');
  const latencyMetric = config.scenario === 'bulk' ? 'batch_latency' : 'accept_latency';
  return {
    acceptedByK6: accepted,
    acceptedByPlatform: platformAccepted === null || platformAccepted < 0 ? null : platformAccepted,
    acceptedPerSecond: rate(accepted, acceptSpan),
    acceptSpanSeconds: acceptSpan,
    settledPerSecond: rate(count('outcome_settled'), finalSpan),
    finalPerSecond: rate(count('outcome_final'), finalSpan),
    finalSpanSeconds: finalSpan,
    // GET /stats once a second during the load (the monitor scenario).
    duringLoad: {
      settledPerSecond: value(m, 'monitor_settled_per_s', 'avg'),
      finalPerSecond: value(m, 'monitor_final_per_s', 'avg'),
      settledPerSecondMax: value(m, 'monitor_settled_per_s', 'max'),
      openMax: value(m, 'monitor_open', 'max'),
      samples: value(m, 'monitor_open', 'count'),
    },
    acceptLatencyMs: trend(m, judged(latencyMetric)),
    // Payments by PIX key or BR Code (KEY_SHARE, QR_SHARE), each after a look-up; and the scan scenario's figures.
    byKey: value(m, 'payments_by_key', 'count'),
    lookUpLatencyMs: trend(m, 'look_up_latency'),
    scan: config.scenario === 'scan' ? { refused: value(m, 'scan_look_ups_refused', 'count'),
      missing: value(m, 'scan_look_ups_missing', 'count'), honestRefused: value(m, 'honest_look_ups_refused', 'count'),
      honestLatencyMs: trend(m, 'honest_look_up_latency') } : null,
    // The warm-up (WARMUP): shown, not judged.
    warmup: config.warmupSeconds > 0 ? { seconds: config.warmupSeconds,
      acceptLatencyMs: trend(m, `${latencyMetric}{scenario:${WARMUP_SCENARIO}}`),
      unexpected: count(`unexpected_answers{scenario:${WARMUP_SCENARIO}}`),
      droppedIterations: count(`dropped_iterations{scenario:${WARMUP_SCENARIO}}`) } : null,
    acceptLatencyMetric: latencyMetric,
    acceptToSettledMs: platformHistogram(m, 'platform_accept_to_settled'),
    acceptToVisibleMs: platformHistogram(m, 'platform_accept_to_visible'),
    clearingPublished: nonNegative(value(m, 'clearing_outcomes_published', 'value')),
    clearingPublishedSettled: nonNegative(value(m, 'clearing_settled_published', 'value')),
    outcomes: { SETTLED: count('outcome_settled'), REJECTED: count('outcome_rejected'), EXPIRED: count('outcome_expired'),
      final: count('outcome_final'), stillOpen: value(m, 'settle_open_at_end', 'value') },
    settlement: {
      waitedSeconds: value(m, 'settle_wait_seconds', 'value'),
      missingK6: count('settle_missing'),
      missingPlatform: count('settle_platform_missing'),
      unexpectedFinal: count('settle_unexpected_final'),
      integrityAlarms: count('settle_integrity_alarms'),
    },
    sampled: { checked: count('verify_checked'), wrong: count('verify_wrong'),
      notFinalInTime: count('verify_not_final_in_time'), acceptToFinalMs: trend(m, 'verify_accept_to_final') },
    requests: {
      nsfAccepted: count('nsf_payments_accepted'), duplicatesSameId: count('duplicates_answered_same_id'),
      keyReusesRefused: count('conflicting_resends_refused'), unanswered: count('payments_unanswered'),
      unexpected: count(judged('unexpected_answers')), errorRate: value(m, judged('payment_errors'), 'rate'),
      droppedIterations: count(judged('dropped_iterations')), httpRequests: count('http_reqs'),
      httpFailedRate: value(m, judged('http_req_failed'), 'rate'),
    },
  };
}

// stress: per step, what was achieved and whether the SLO held; the first step that broke is the
// breaking point.
function stressAnalysis(m) {
  const steps = stressSteps().map((r) => {
    const latency = trend(m, `accept_latency{rate_step:${r}}`);
    const errorRate = value(m, `payment_errors{rate_step:${r}}`, 'rate');
    const accepted = value(m, `payments_accepted{rate_step:${r}}`, 'count') || 0;
    const scheduled = r * config.stepSeconds;
    const reasons = [];
    if (latency === null) {
      reasons.push('no payment accepted');
    } else {
      if (latency.p95 > config.acceptP95Ms) reasons.push(`p95 ${fmt(latency.p95)} ms > ${config.acceptP95Ms}`);
      if (latency.p99 > config.acceptP99Ms) reasons.push(`p99 ${fmt(latency.p99)} ms > ${config.acceptP99Ms}`);
    }
    if (errorRate !== null && errorRate > config.errorRateMax) reasons.push(`errors ${pct(errorRate)} > ${pct(config.errorRateMax)}`);
    if (accepted < config.achievedShareMin * scheduled) {
      reasons.push(`accepted ${accepted} of ${scheduled} scheduled (< ${pct(config.achievedShareMin)}: saturated)`);
    }
    const settledPerSecond = value(m, `monitor_settled_per_s{rate_step:${r}}`, 'avg');
    const finalPerSecond = value(m, `monitor_final_per_s{rate_step:${r}}`, 'avg');
    const openMax = value(m, `monitor_open{rate_step:${r}}`, 'max');
    const acceptedPerSecond = accepted / config.stepSeconds;
    // Settlement keeps up when outcomes are produced about as fast as payments are accepted.
    const settlementBehind = finalPerSecond !== null && finalPerSecond < 0.9 * acceptedPerSecond;
    return { targetRate: r, acceptedPerSecond, accepted, scheduled, latency, errorRate, settledPerSecond, finalPerSecond,
      openMax, settlementBehind, broke: reasons.length > 0, reasons };
  });
  const firstBehind = steps.find((step) => step.settlementBehind);
  const firstBroken = steps.find((s) => s.broke);
  const lastGood = firstBroken ? steps.slice(0, steps.indexOf(firstBroken)).filter((s) => !s.broke).pop() : steps[steps.length - 1];
  return {
    stepSeconds: config.stepSeconds,
    steps,
    breakingPoint: firstBroken ? { targetRate: firstBroken.targetRate, reasons: firstBroken.reasons } : null,
    lastGoodRate: lastGood ? lastGood.targetRate : null,
    maxAcceptedPerSecond: Math.max(...steps.map((s) => s.acceptedPerSecond)),
    maxSettledPerSecond: Math.max(...steps.map((s) => s.settledPerSecond || 0)),
    settlementBehindFrom: firstBehind ? firstBehind.targetRate : null,
  };
}

function spikeAnalysis(m) {
  return spikePhases().map(([phase, seconds, r]) => ({
    phase, seconds, targetRate: r,
    accepted: value(m, `payments_accepted{phase:${phase}}`, 'count') || 0,
    latency: trend(m, `accept_latency{phase:${phase}}`),
    errorRate: value(m, `payment_errors{phase:${phase}}`, 'rate'),
    settledPerSecond: value(m, `monitor_settled_per_s{phase:${phase}}`, 'avg'),
    openMax: value(m, `monitor_open{phase:${phase}}`, 'max'),
  }));
}

// Every check that failed at least once: [{ name, passes, fails }], from every group.
function failingChecks(group) {
  const out = [];
  const visit = (g) => {
    if (!g) {
      return;
    }
    for (const c of g.checks || []) {
      if (c.fails > 0) {
        out.push({ name: c.name, passes: c.passes, fails: c.fails });
      }
    }
    (g.groups || []).forEach(visit);
  };
  visit(group);
  return out;
}

function thresholdResults(m) {
  const results = [];
  for (const name of Object.keys(m).sort()) {
    for (const [expression, state] of Object.entries(m[name].thresholds || {})) {
      results.push({ metric: name, expression, ok: state.ok });
    }
  }
  return results;
}

function text(r, file) {
  const f = r.figures;
  const lines = [];
  const line = (s) => lines.push(s);
  line('');
  line(`==================== Pagora k6: ${r.scenario} ====================`);
  line(`schedule      ${r.schedule}`);
  if (r.participants) line(`participants  ${r.participants}`);
  line(`identity      ${r.participant} (its client certificate, mutual TLS)${caller.operator ? ''
    : '; the platform-wide figures (/stats, payment-api and reporting metrics) are the operator\'s: SCENARIO=observe'}`);
  line(`run id        ${r.runId}   API ${config.apiUrl}, reporting ${config.reportingUrl}, clearing ${config.clearingUrl}`);
  line('');
  const q = f.requests;
  if (f.warmup) {
    line(`warm-up       ${f.warmup.seconds} s, not judged: accept ${quantiles(f.warmup.acceptLatencyMs)}; `
      + `${f.warmup.unexpected} unexpected answers, dropped iterations ${f.warmup.droppedIterations}; `
      + 'below, "payments" counts both, the latency and the error figures only the run after it');
  }
  line(`payments      ${f.acceptedByK6} accepted by k6 (new ids; payment-api counted ${f.acceptedByPlatform === null ? 'n/a' : f.acceptedByPlatform}), `
    + `${q.nsfAccepted} of them deliberately NSF; ${q.duplicatesSameId} duplicates answered the same id, `
    + `${q.keyReusesRefused} key re-uses refused; ${q.unanswered} unanswered, ${q.unexpected} unexpected answers; `
    + `error rate ${pct(q.errorRate)}; dropped iterations ${q.droppedIterations}`);
  line(`throughput    accepted/s ${fmt(f.acceptedPerSecond)} (first→last acceptance ${fmt(f.acceptSpanSeconds)} s); `
    + `settled/s ${fmt(f.settledPerSecond)}, final/s ${fmt(f.finalPerSecond)} (run's SETTLED / final states over first acceptance→last final_at, `
    + `${fmt(f.finalSpanSeconds)} s, expiries included)`);
  const d = f.duringLoad;
  line(`during load   settled/s ${fmt(d.settledPerSecond)} avg, ${fmt(d.settledPerSecondMax)} max; final/s ${fmt(d.finalPerSecond)} avg; `
    + `open (accepted, not final) max ${fmt(d.openMax)} (${caller.operator ? 'GET /stats' : `GET /payments?status=ACCEPTED as ${caller.principal}`}`
    + ` each second, ${d.samples || 0} samples)`);
  line(`latency       accept (k6, ${f.acceptLatencyMetric === 'batch_latency' ? `POST /payments/batch of ${config.batchSize} → 200` : 'POST /payments → 202'}): ${quantiles(f.acceptLatencyMs)}`);
  if (f.byKey !== null) {
    line(`              look-up (POST /directory/lookups → 200, ${f.byKey} payments by key or BR Code): ${quantiles(f.lookUpLatencyMs)}`);
  }
  if (f.scan !== null) {
    line(`scan          ${f.scan.refused || 0} scanning look-ups refused (429), ${f.scan.missing || 0} answered key-not-found; `
      + `honest look-ups ${quantiles(f.scan.honestLatencyMs)}, ${f.scan.honestRefused || 0} refused`);
  }
  line(`              accept→settled (clearing pagora_clearing_accept_to_settled_seconds): ${platformText(f.acceptToSettledMs)}`);
  line(`              accept→visible (reporting pagora_reporting_accept_to_visible_seconds): ${platformText(f.acceptToVisibleMs)}`);
  const o = f.outcomes;
  if (caller.operator) {
    line(`outcomes      SETTLED ${o.SETTLED}, REJECTED ${o.REJECTED}, EXPIRED ${o.EXPIRED} (final ${o.final}; reporting /stats deltas), still open ${o.stillOpen}`);
  } else {
    line(`outcomes      ${caller.principal}'s payments still open at the end: ${o.stillOpen}; clearing published `
      + `${f.clearingPublished === null ? 'n/a' : f.clearingPublished} outcomes (${f.clearingPublishedSettled === null ? 'n/a' : f.clearingPublishedSettled} PaymentSettled)`);
  }
  if (caller.operator && f.clearingPublished !== null) {
    line(`              clearing published ${f.clearingPublished} outcomes (${f.clearingPublishedSettled} PaymentSettled) for these ${o.final} final states: `
      + `${f.clearingPublished - o.final} re-publications (at-least-once; the read model keeps one; the accept→settled histogram counts each)`);
  }
  const s = f.settlement;
  const settledOk = s.missingK6 < 1 && s.missingPlatform < 1 && s.unexpectedFinal < 1 && s.integrityAlarms < 1;
  line(`settlement    ${settledOk ? 'PASS' : 'FAIL'}: waited ${fmt(s.waitedSeconds)} s (SETTLE_TIMEOUT ${config.settleTimeoutSeconds} s); `
    + `${caller.operator ? '' : `${caller.principal}'s payments not final ${s.missingK6}, `}missing vs payment-api ${s.missingPlatform}, `
    + `final states beyond acceptances ${s.unexpectedFinal}, integrity alarms ${s.integrityAlarms}`);
  line(`sampled ids   ${f.sampled.checked} followed to a final state (VERIFY_SHARE ${config.verifyShare}), ${f.sampled.wrong} wrong, `
    + `${f.sampled.notFinalInTime} not final within VERIFY_TIMEOUT; client-observed accept→final ${quantiles(f.sampled.acceptToFinalMs)}`);
  if (r.stress) {
    line('');
    line(`stress steps (${r.stress.stepSeconds} s each; SLO p95 < ${config.acceptP95Ms} ms, p99 < ${config.acceptP99Ms} ms, errors < ${pct(config.errorRateMax)}, ≥ ${pct(config.achievedShareMin)} of scheduled accepted):`);
    line('  target/s  accepted/s   p50 ms   p95 ms   p99 ms   errors  settled/s  final/s  open max  verdict');
    for (const step of r.stress.steps) {
      const l = step.latency || {};
      line(`  ${pad(step.targetRate, 8)}  ${pad(fmt(step.acceptedPerSecond), 10)}  ${pad(fmt(l.p50), 7)}  ${pad(fmt(l.p95), 7)}  `
        + `${pad(fmt(l.p99), 7)}  ${pad(pct(step.errorRate), 7)}  ${pad(fmt(step.settledPerSecond), 9)}  ${pad(fmt(step.finalPerSecond), 7)}  `
        + `${pad(fmt(step.openMax), 8)}  ${step.broke ? `BROKE: ${step.reasons.join('; ')}` : 'ok'}`
        + `${step.settlementBehind ? ' (settlement behind: final/s < 90% of accepted/s)' : ''}`);
    }
    line(r.stress.breakingPoint
      ? `breaking point: ${r.stress.breakingPoint.targetRate}/s (${r.stress.breakingPoint.reasons.join('; ')}); `
        + `last step within the SLO: ${r.stress.lastGoodRate === null ? 'none' : `${r.stress.lastGoodRate}/s`}; `
        + `most accepted/s in a step: ${fmt(r.stress.maxAcceptedPerSecond)}`
      : `breaking point: not reached up to ${config.maxRate}/s (most accepted/s in a step: ${fmt(r.stress.maxAcceptedPerSecond)})`);
    line(`settlement: most settled/s in a step ${fmt(r.stress.maxSettledPerSecond)}; `
      + (r.stress.settlementBehindFrom === null ? 'kept up with the accepted rate in every step'
        : `fell behind the accepted rate from the ${r.stress.settlementBehindFrom}/s step on (backlog grows)`));
  }
  if (r.spike) {
    line('');
    line('spike phases:  phase     target/s  accepted/s   p95 ms   p99 ms   errors  settled/s  open max');
    for (const p of r.spike) {
      const l = p.latency || {};
      line(`               ${p.phase.padEnd(8)}  ${pad(p.targetRate, 8)}  ${pad(fmt(p.accepted / p.seconds), 10)}  ${pad(fmt(l.p95), 7)}  `
        + `${pad(fmt(l.p99), 7)}  ${pad(pct(p.errorRate), 7)}  ${pad(fmt(p.settledPerSecond), 9)}  ${pad(fmt(p.openMax), 8)}`);
    }
  }
  if (r.failedChecks.length > 0) {
    line('');
    line('failed checks:');
    r.failedChecks.forEach((c) => line(`  ✗ ${c.name}: ${c.fails} failed, ${c.passes} passed`));
  }
  line('');
  line('thresholds:');
  for (const t of r.thresholds.filter((x) => !/^(max>=0|rate>=0|count>=0)$/.test(x.expression))) {
    line(`  ${t.ok ? '✓' : '✗'} ${t.metric}: ${t.expression}`);
  }
  line('');
  line(`RESULT: ${r.result}${r.result === 'PASS' ? '' : ' (a threshold failed: k6 exits non-zero)'}   summary: ${file}`);
  line('');
  return lines.join('\n');
}

function scheduleText() {
  const vus = `${config.preAllocatedVUs}..${config.maxVUs} VUs`;
  switch (config.scenario) {
    case 'smoke':
      return `${config.smokeIterations} iterations of 1 VU (every kind of payment, a batch of ${config.batchSize}, every id followed)`;
    case 'bulk':
      return `${config.rate} batches/s of ${config.batchSize} (${config.rate * config.batchSize} payments/s) for ${config.durationSeconds} s, ${vus}`;
    case 'stress':
      return `ramping arrival ${config.startRate}/s +${config.stepRate}/s every ${config.stepSeconds} s up to ${config.maxRate}/s, ${vus}`;
    case 'observe':
      return `the operator's view for ${config.durationSeconds} s (GET /stats each second), then the platform-wide settlement check`;
    case 'scan':
      return `${config.scanRate} look-ups/s of random keys (each for a new end user) and ${config.honestRate} honest look-ups/s`
        + ` of real keys, for ${config.durationSeconds} s, ${vus}`;
    case 'spike':
      return `${config.rate}/s for ${config.baseSeconds} s, ${config.spikeRate}/s for ${config.spikeSeconds} s, `
        + `${config.rate}/s for ${config.recoverySeconds} s, ${vus}`;
    default:
      return `constant arrival ${config.rate}/s for ${config.durationSeconds} s${config.payments ? ` (at most ${config.payments} payments)` : ''}, ${vus}`
        + (config.hotShare > 0 ? `; ${pct(config.hotShare)} of payments debit ${config.hotAccounts} hot accounts` : '');
  }
}

function participantsText(p) {
  return `${p.payers.length} payers of ${caller.principal} to ${p.customers.length} customers at ${p.banks.length} banks (${p.source})`
    + `${config.hotShare > 0 ? `, ${p.hot.length} hot` : ''}, ${p.dry.length > 0 ? `${p.dry.length} dry accounts (the NSF payers)`
      : `NSF payments of ${p.nsfAmountCentavos} centavos (more than all funding)`}`;
}

function nonNegative(x) {
  return x === null || x < 0 ? null : x;
}

function platformHistogram(m, prefix) {
  const count = value(m, `${prefix}_count`, 'value');
  if (count === null || count < 0) {
    return null;
  }
  return {
    count,
    p50: value(m, `${prefix}_p50_ms`, 'value'),
    p95: value(m, `${prefix}_p95_ms`, 'value'),
    p99: value(m, `${prefix}_p99_ms`, 'value'),
  };
}

function platformText(h) {
  if (h === null) {
    return 'n/a (metric not exported)';
  }
  if (h.count === 0) {
    return 'no observations in the run window (n=0)';
  }
  return `p50 ${fmt(h.p50)} ms  p95 ${fmt(h.p95)} ms  p99 ${fmt(h.p99)} ms  (n=${h.count}, from histogram bucket deltas)`;
}

function trend(m, name) {
  const v = m[name] && m[name].values;
  if (!v || !v.count) {
    return null;
  }
  return { p50: v['p(50)'], p95: v['p(95)'], p99: v['p(99)'], max: v.max, avg: v.avg, count: v.count };
}

function quantiles(t) {
  return t === null ? 'no data'
    : `p50 ${fmt(t.p50)} ms  p95 ${fmt(t.p95)} ms  p99 ${fmt(t.p99)} ms  max ${fmt(t.max)} ms  (n=${t.count})`;
}

function value(m, name, key) {
  const v = m[name] && m[name].values;
  return v && typeof v[key] === 'number' ? v[key] : null;
}

function rate(count, seconds) {
  return count === null || seconds === null || seconds <= 0 ? null : count / seconds;
}

function fmt(x) {
  if (x === null || x === undefined || Number.isNaN(x)) {
    return 'n/a';
  }
  return Math.abs(x) >= 100 ? x.toFixed(0) : x.toFixed(1);
}

function pct(x) {
  return x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(2)}%`;
}

function pad(x, width) {
  return String(x).padStart(width);
}

// Where summaries go by default: k6/results/ (git-ignored) when it exists, else the repository's var/
// (git-ignored, where the launcher keeps everything), else the working directory. k6 cannot create a
// directory, and open() tells a directory from a missing path: probed once, in the init context.
const SUMMARY_DIRS = ['../results', '../../var'].map((relative) => {
  try {
    open(relative);
    return null; // a file, not a directory
  } catch (e) {
    return /directories/.test(String(e)) ? relative : null;
  }
}).filter((dir) => dir !== null);

function defaultSummaryPath() {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');
  const name = `${config.scenario}-${stamp}-summary.json`;
  if (SUMMARY_DIRS.length > 0) {
    try {
      const resolved = import.meta.resolve(`${SUMMARY_DIRS[0]}/${SUMMARY_DIRS[0] === '../results' ? '' : 'k6-'}${name}`);
      if (resolved.startsWith('file://')) {
        return decodeURIComponent(resolved.slice('file://'.length));
      }
    } catch (e) {
      // fall through: the working directory
    }
  }
  return `k6-${name}`;
}
