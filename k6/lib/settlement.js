// Settlement checks: every payment accepted during the run must reach exactly one final state in the
// reporting-service, within SETTLE_TIMEOUT. What a run can see depends on who it is (lib/identity.js):
//
// A bank's run (every run that pays) sees its own payments only:
//  - teardown() waits until reporting lists none of the bank's payments as open (GET /payments?status=
//    ACCEPTED, the payments it pays or receives; 3 polls in a row, so a payment not yet projected is waited
//    for): settle_missing = its payments still open at SETTLE_TIMEOUT (at most the listing's 100), must be 0;
//  - a sample of ids (VERIFY_SHARE; all in smoke) is followed by the VU that got it: GET /payments/{id} until
//    it is final (VERIFY_TIMEOUT), then it must match what was sent, carry one final event, and an NSF payment
//    must be REJECTED for lack of funds or reserve (verify_wrong).
//  - clearing-service's metrics (no participant API, plain HTTP): accept->settled quantiles and the outcomes
//    it published.
//
// The operator's run (SCENARIO=observe, next to a bank's run) sees the platform: reporting's GET /stats and
// the services' /actuator/prometheus, operator-only. k6 VUs share no memory and teardown() sees only setup()'s
// data, so it works on counts: teardown() waits until the read model has gained as many final states as
// payment-api counted acceptances; none missing (settle_platform_missing), none extra (settle_unexpected_final:
// a final state for a payment nobody was given, i.e. a duplicate); reporting's integrity alarms (a second,
// different final state for a payment; an event that contradicts the payment) must not grow
// (settle_integrity_alarms).
// The run must be the only traffic on the platform: other payments would blur the deltas.
import http from 'k6/http';
import { check, sleep } from 'k6';
import { Counter, Gauge, Trend } from 'k6/metrics';
import { config } from './config.js';
import { histogramQuantile, scrape } from './prometheus.js';
import { caller } from './identity.js';

export const settlementMetrics = {
  // A bank's run: its payments reporting still lists as open at the end. Must end < 1.
  settleMissing: new Counter('settle_missing'),
  verified: new Counter('verify_checked'),
  verifyWrong: new Counter('verify_wrong'),
  verifyNotFinal: new Counter('verify_not_final_in_time'),
  // Client view: from the 202 (or the batch's 200) until a GET showed the final state, polled every 250 ms.
  verifyAcceptToFinal: new Trend('verify_accept_to_final', true),
  platformMissing: new Counter('settle_platform_missing'),
  unexpectedFinal: new Counter('settle_unexpected_final'),
  integrityAlarms: new Counter('settle_integrity_alarms'),
  stillOpen: new Gauge('settle_open_at_end'),
  waited: new Gauge('settle_wait_seconds'),
  settled: new Counter('outcome_settled'),
  rejected: new Counter('outcome_rejected'),
  expired: new Counter('outcome_expired'),
  finals: new Counter('outcome_final'),
  platformAccepted: new Gauge('platform_accepted'), // -1: payment-api does not export the counter
  lastFinalAt: new Gauge('settle_last_final_epoch_ms'),
  // Outcomes clearing published (acknowledged by Kafka) during the run, re-publications included; -1 n/a.
  clearingPublished: new Gauge('clearing_outcomes_published'),
  clearingPublishedSettled: new Gauge('clearing_settled_published'),
  runStartedAt: new Gauge('run_started_epoch_ms'),
  // accept->settled (clearing) and accept->visible (reporting) from the platform's own histograms;
  // *_count -1: metric not exported.
  acceptToSettledCount: new Gauge('platform_accept_to_settled_count'),
  acceptToSettledP50: new Gauge('platform_accept_to_settled_p50_ms'),
  acceptToSettledP95: new Gauge('platform_accept_to_settled_p95_ms'),
  acceptToSettledP99: new Gauge('platform_accept_to_settled_p99_ms'),
  acceptToVisibleCount: new Gauge('platform_accept_to_visible_count'),
  acceptToVisibleP50: new Gauge('platform_accept_to_visible_p50_ms'),
  acceptToVisibleP95: new Gauge('platform_accept_to_visible_p95_ms'),
  acceptToVisibleP99: new Gauge('platform_accept_to_visible_p99_ms'),
  // The monitor scenario's samples of GET /stats, one per second during the load.
  monitorSettledPerSecond: new Trend('monitor_settled_per_s'),
  monitorFinalPerSecond: new Trend('monitor_final_per_s'),
  monitorOpen: new Trend('monitor_open'), // payments accepted and not yet final: the settlement backlog
};

const FINAL = ['SETTLED', 'REJECTED', 'EXPIRED'];
const STATS_OK = http.expectedStatuses(200);
const PAYMENT_LOOKUP = http.expectedStatuses(200, 404); // 404: not projected yet
const VERIFY_POLL_SECONDS = 0.25;
const OWN_OPEN_LIMIT = 100; // reporting's listing maximum
const OWN_STABLE_POLLS = 3;
const ACCEPT_TO_SETTLED = 'pagora_clearing_accept_to_settled_seconds';
const ACCEPT_TO_VISIBLE = 'pagora_reporting_accept_to_visible_seconds';

/** What the platform has counted so far; setup() takes one before the load, teardown() one after. */
export function snapshot() {
  const stats = getStats();
  const api = scrape(`${config.apiUrl}/actuator/prometheus`);
  const clearing = scrape(`${config.clearingUrl}/actuator/prometheus`);
  const reporting = scrape(`${config.reportingUrl}/actuator/prometheus`);
  return {
    at: Date.now(),
    stats,
    platformAccepted: platformAccepted(api),
    integrityAlarms: reporting === null ? null
      : reporting.sum('pagora_reporting_conflicting_outcomes_total') + reporting.sum('pagora_reporting_inconsistent_events_total'),
    acceptToSettled: clearing === null ? null : clearing.buckets(`${ACCEPT_TO_SETTLED}_bucket`),
    acceptToVisible: reporting === null ? null : reporting.buckets(`${ACCEPT_TO_VISIBLE}_bucket`),
    clearingOutcomes: clearing === null ? null : clearing.series('pagora_clearing_outcomes_total', ['status', 'reason']),
    endpoints: { api: api !== null, clearing: clearing !== null, reporting: reporting !== null },
  };
}

/**
 * setup(): payments still open from an earlier run would blur this run's deltas: wait (bounded) for
 * them, then take the baseline.
 */
export function baseline() {
  if (!caller.operator) {
    return ownBaseline();
  }
  const deadline = Date.now() + Math.min(config.settleTimeoutSeconds, 120) * 1000;
  let stats = getStats();
  while (stats.counts.ACCEPTED > 0 && Date.now() < deadline) {
    sleep(1);
    stats = getStats();
  }
  if (stats.counts.ACCEPTED > 0) {
    console.warn(`${stats.counts.ACCEPTED} payments of an earlier run are still open: the settlement deltas may be off`);
  }
  const taken = snapshot();
  settlementMetrics.runStartedAt.add(taken.at);
  return taken;
}

/** teardown(): wait (bounded) until every accepted payment is final, then record the verdicts. */
export function awaitSettlement(base) {
  if (!caller.operator) {
    return awaitOwnPayments(base);
  }
  const started = Date.now();
  const deadline = started + config.settleTimeoutSeconds * 1000;
  let previousTotal = -1;
  let stableFor = 0;
  let now;
  for (;;) {
    now = snapshot();
    const delta = deltas(base, now);
    const open = now.stats.counts.ACCEPTED;
    stableFor = delta.total === previousTotal ? stableFor + 1 : 0;
    previousTotal = delta.total;
    // Known acceptances: done when that many new final states exist and none is open. Unknown (no
    // counter exported): done when nothing is open and the read model stopped growing for 3 polls.
    const done = delta.platformAccepted !== null
      ? delta.finals >= delta.platformAccepted && open <= base.stats.counts.ACCEPTED
      : open <= base.stats.counts.ACCEPTED && stableFor >= 3;
    if (done || Date.now() >= deadline) {
      if (!done) {
        console.warn(`settlement: not every payment is final after SETTLE_TIMEOUT=${config.settleTimeoutSeconds}s `
          + `(${open} open, ${delta.finals} new final states, payment-api accepted ${delta.platformAccepted})`);
      }
      break;
    }
    sleep(config.settlePollSeconds);
  }
  const delta = deltas(base, now);
  const m = settlementMetrics;
  m.waited.add((Date.now() - started) / 1000);
  m.stillOpen.add(Math.max(0, now.stats.counts.ACCEPTED - base.stats.counts.ACCEPTED));
  m.settled.add(delta.counts.SETTLED);
  m.rejected.add(delta.counts.REJECTED);
  m.expired.add(delta.counts.EXPIRED);
  m.finals.add(delta.finals);
  if (now.stats.maxFinalAt) {
    m.lastFinalAt.add(Date.parse(now.stats.maxFinalAt));
  }
  m.settleMissing.add(0); // a bank's figure: always emitted, so its threshold is evaluated
  m.platformAccepted.add(delta.platformAccepted === null ? -1 : delta.platformAccepted);
  // Always emitted (0 when fine), so the thresholds on them are evaluated on every run.
  m.platformMissing.add(delta.platformAccepted === null ? 0 : Math.max(0, delta.platformAccepted - delta.finals));
  m.unexpectedFinal.add(delta.platformAccepted === null ? 0 : Math.max(0, delta.finals - delta.platformAccepted));
  m.integrityAlarms.add(delta.integrityAlarms === null ? 0 : delta.integrityAlarms);
  m.clearingPublished.add(delta.clearingPublished === null ? -1 : delta.clearingPublished);
  m.clearingPublishedSettled.add(delta.clearingPublishedSettled === null ? -1 : delta.clearingPublishedSettled);
  recordHistogram(base.acceptToSettled, now.acceptToSettled, m.acceptToSettledCount,
    [m.acceptToSettledP50, m.acceptToSettledP95, m.acceptToSettledP99]);
  recordHistogram(base.acceptToVisible, now.acceptToVisible, m.acceptToVisibleCount,
    [m.acceptToVisibleP50, m.acceptToVisibleP95, m.acceptToVisibleP99]);
  return { delta, now };
}

/** The deltas between two snapshots; null where a side was not available. */
export function deltas(base, now) {
  const counts = {};
  for (const status of ['ACCEPTED'].concat(FINAL)) {
    counts[status] = now.stats.counts[status] - base.stats.counts[status];
  }
  const finals = FINAL.reduce((sum, s) => sum + counts[s], 0);
  const diff = (a, b) => (a === null || b === null || b < a ? null : b - a); // b < a: the service restarted
  return {
    counts,
    finals,
    total: now.stats.total - base.stats.total,
    // payment-api registers its counter on the first payment: absent at the baseline is 0 then.
    platformAccepted: diff(base.platformAccepted === null && base.endpoints.api ? 0 : base.platformAccepted,
      now.platformAccepted),
    integrityAlarms: diff(base.integrityAlarms, now.integrityAlarms),
    clearingPublished: diff(sumOf(base.clearingOutcomes), sumOf(now.clearingOutcomes)),
    clearingPublishedSettled: diff(sumOf(base.clearingOutcomes, 'status=SETTLED'), sumOf(now.clearingOutcomes, 'status=SETTLED')),
  };
}

// Sum of a series map ({ "status=SETTLED,reason=": n }) over the keys containing `part`; null stays null.
function sumOf(series, part) {
  if (series === null) {
    return null;
  }
  return Object.keys(series).filter((k) => !part || k.split(',').includes(part)).reduce((t, k) => t + series[k], 0);
}

/**
 * A VU follows some of its accepted payments ([{ id, payment }], accepted at acceptedAtMs) until final
 * (bounded by VERIFY_TIMEOUT), all at once, and checks what the read model says about each.
 */
export function verifyPayments(accepted, acceptedAtMs, tags) {
  const deadline = acceptedAtMs + config.verifyTimeoutSeconds * 1000;
  const params = { timeout: `${config.requestTimeoutSeconds}s`, responseCallback: PAYMENT_LOOKUP,
    tags: Object.assign({}, tags, { name: 'GET /payments/{id}' }) };
  let pending = accepted;
  for (;;) {
    const answers = http.batch(pending.map((p) => ['GET', `${config.reportingUrl}/payments/${p.id}`, null, params]));
    const stillOpen = [];
    pending.forEach((p, i) => {
      const view = answers[i].status === 200 ? json(answers[i]) : null;
      if (view !== null && FINAL.includes(view.status)) {
        judge(p.id, p.payment, view, acceptedAtMs, tags);
      } else {
        stillOpen.push(p);
      }
    });
    pending = stillOpen;
    if (pending.length === 0) {
      return;
    }
    if (Date.now() >= deadline) {
      // Not a verdict: teardown's count check decides whether they are missing.
      settlementMetrics.verifyNotFinal.add(pending.length, tags);
      return;
    }
    sleep(VERIFY_POLL_SECONDS);
  }
}

function judge(paymentId, payment, view, acceptedAtMs, tags) {
  settlementMetrics.verified.add(1, tags);
  settlementMetrics.verifyAcceptToFinal.add(Date.now() - acceptedAtMs, tags);
  const finals = (view.timeline || []).filter((e) => FINAL.includes(e.event));
  const ok = check(view, {
    'the read model has the payment as sent': (v) => v.paymentId === paymentId
      && v.payerAccountId === payment.body.payerAccountId && v.payeeAccountId === payment.body.payeeAccountId
      && v.amountCentavos === payment.body.amountCentavos,
    'the payment has exactly one final state': (v) => finals.length === 1 && finals[0].event === v.status && !!v.finalAt,
    'an insufficient-funds payment is REJECTED for lack of funds or reserve': (v) => payment.kind !== 'nsf'
      || (v.status === 'REJECTED' && ['INSUFFICIENT_FUNDS', 'INSUFFICIENT_RESERVE'].includes(v.reason)),
  });
  if (!ok) {
    settlementMetrics.verifyWrong.add(1, tags);
    console.error(`payment ${paymentId} (key ${payment.key}, ${payment.kind}): the read model says ${JSON.stringify(view)}`);
  }
}

function json(res) {
  try {
    return res.json();
  } catch (e) {
    return null;
  }
}

// The monitor VU's previous /stats sample (module state is per VU).
let previousSample = null;

/** The monitor scenario: one /stats sample per iteration (a bank: its open payments), about a second apart. */
export function monitorStats(tags) {
  if (!caller.operator) {
    const at = Date.now();
    settlementMetrics.monitorOpen.add(ownOpen(), tags);
    sleep(Math.max(0, 1 - (Date.now() - at) / 1000));
    return;
  }
  const stats = getStats();
  const at = Date.now();
  if (previousSample !== null && at > previousSample.at) {
    const seconds = (at - previousSample.at) / 1000;
    const finals = (s) => FINAL.reduce((sum, status) => sum + s.counts[status], 0);
    settlementMetrics.monitorSettledPerSecond.add((stats.counts.SETTLED - previousSample.stats.counts.SETTLED) / seconds, tags);
    settlementMetrics.monitorFinalPerSecond.add((finals(stats) - finals(previousSample.stats)) / seconds, tags);
  }
  settlementMetrics.monitorOpen.add(stats.counts.ACCEPTED, tags);
  previousSample = { at, stats };
  sleep(Math.max(0, 1 - (Date.now() - at) / 1000));
}

function getStats() {
  const res = http.get(`${config.reportingUrl}/stats`, {
    timeout: '10s', responseCallback: STATS_OK, tags: { name: 'GET /stats' },
  });
  let stats = null;
  try {
    stats = res.json();
  } catch (e) {
    stats = null;
  }
  if (res.status !== 200 || stats === null || typeof stats.total !== 'number' || !stats.counts) {
    throw new Error(`reporting-service GET ${config.reportingUrl}/stats answered ${res.status} ${res.body}`);
  }
  return stats;
}

// payment-api's count of new payments: the issue-4 counter, else the older per-outcome request counter.
function platformAccepted(api) {
  if (api === null) {
    return null;
  }
  if (api.has('pagora_payments_accepted_total')) {
    return api.sum('pagora_payments_accepted_total');
  }
  if (api.has('pagora_payments_requests_total')) {
    return api.sum('pagora_payments_requests_total', { outcome: 'accepted' });
  }
  return null;
}

function recordHistogram(before, after, countGauge, quantileGauges) {
  if (after === null || Object.keys(after).length === 0) {
    countGauge.add(-1); // not exported (yet): the summary says n/a
    return;
  }
  const delta = {};
  for (const le of Object.keys(after)) {
    delta[le] = after[le] - ((before && before[le]) || 0);
  }
  if (Object.values(delta).some((v) => v < 0)) {
    console.warn('a latency histogram went backwards: the service restarted during the run; its quantiles are n/a');
    countGauge.add(-1);
    return;
  }
  const count = delta['+Inf'] || 0;
  countGauge.add(count);
  if (count > 0) {
    [0.5, 0.95, 0.99].forEach((q, i) => quantileGauges[i].add(histogramQuantile(delta, q) * 1000));
  }
}

// ------------------------------------------------------------------------------------ a bank's own view

/** How many of the run's bank's payments reporting lists as open (ACCEPTED), at most OWN_OPEN_LIMIT. */
function ownOpen() {
  const res = http.get(`${config.reportingUrl}/payments?status=ACCEPTED&limit=${OWN_OPEN_LIMIT}`, {
    timeout: '10s', responseCallback: STATS_OK, tags: { name: 'GET /payments?status=ACCEPTED' },
  });
  const payments = res.status === 200 ? json(res) : null;
  if (payments === null || !Array.isArray(payments.payments)) {
    throw new Error(`reporting-service GET /payments?status=ACCEPTED as ${caller.principal} answered ${res.status} ${res.body}`);
  }
  return payments.payments.length;
}

// clearing-service's side of a bank's run (plain HTTP, no participant API): its latency histogram and outcomes.
function clearingSnapshot() {
  const clearing = scrape(`${config.clearingUrl}/actuator/prometheus`);
  return {
    at: Date.now(),
    acceptToSettled: clearing === null ? null : clearing.buckets(`${ACCEPT_TO_SETTLED}_bucket`),
    clearingOutcomes: clearing === null ? null : clearing.series('pagora_clearing_outcomes_total', ['status', 'reason']),
  };
}

// Waits (bounded) for the bank's payments still open from an earlier run, then takes clearing's baseline.
function ownBaseline() {
  const deadline = Date.now() + Math.min(config.settleTimeoutSeconds, 120) * 1000;
  let open = ownOpen();
  while (open > 0 && Date.now() < deadline) {
    sleep(1);
    open = ownOpen();
  }
  if (open > 0) {
    console.warn(`${open} payments of ${caller.principal} from an earlier run are still open: settle_missing may count them`);
  }
  const taken = clearingSnapshot();
  settlementMetrics.runStartedAt.add(taken.at);
  return taken;
}

// teardown() of a bank's run: done when none of its payments is listed open for OWN_STABLE_POLLS polls in a row.
function awaitOwnPayments(base) {
  const started = Date.now();
  const deadline = started + config.settleTimeoutSeconds * 1000;
  let open = ownOpen();
  for (let quiet = open === 0 ? 1 : 0; quiet < OWN_STABLE_POLLS && Date.now() < deadline; quiet = open === 0 ? quiet + 1 : 0) {
    sleep(config.settlePollSeconds);
    open = ownOpen();
  }
  if (open > 0) {
    console.warn(`settlement: ${open} payments of ${caller.principal} still open after SETTLE_TIMEOUT=${config.settleTimeoutSeconds}s`);
  }
  const now = clearingSnapshot();
  const m = settlementMetrics;
  m.waited.add((Date.now() - started) / 1000);
  m.stillOpen.add(open);
  m.settleMissing.add(open);
  // The operator's figures: not visible to a bank (n/a in the summary), emitted so their thresholds evaluate.
  m.platformAccepted.add(-1);
  m.platformMissing.add(0);
  m.unexpectedFinal.add(0);
  m.integrityAlarms.add(0);
  const diff = (a, b) => (a === null || b === null || b < a ? null : b - a);
  const published = diff(sumOf(base.clearingOutcomes), sumOf(now.clearingOutcomes));
  const settled = diff(sumOf(base.clearingOutcomes, 'status=SETTLED'), sumOf(now.clearingOutcomes, 'status=SETTLED'));
  m.clearingPublished.add(published === null ? -1 : published);
  m.clearingPublishedSettled.add(settled === null ? -1 : settled);
  recordHistogram(base.acceptToSettled, now.acceptToSettled, m.acceptToSettledCount,
    [m.acceptToSettledP50, m.acceptToSettledP95, m.acceptToSettledP99]);
  m.acceptToVisibleCount.add(-1);
  return { now };
}
