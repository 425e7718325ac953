// SCENARIO=scan: the directory's anti-scanning limits seen from outside (docs/directory.md). The run's bank scans:
// SCAN_RATE look-ups/s of random e-mail keys nobody registered, each for a new end user (PI-PayerId), so only the
// bank's own bucket stands in the way; and its honest payers look up real keys at HONEST_RATE/s. Run the same
// scenario as another bank with SCAN_RATE=0, at the same time: its payers' look-up p99 is the one the scan must not
// move (k6/README.md). Nothing is paid.
import http from 'k6/http';
import { check } from 'k6';
import { Counter, Rate, Trend } from 'k6/metrics';
import { config } from './config.js';
import { cpfOf, keyOf } from './keys.js';

export const scanMetrics = {
  refused: new Counter('scan_look_ups_refused'), // 429 look-up-rate-limited: the bucket stopped the scan
  missing: new Counter('scan_look_ups_missing'), // 404 key-not-found: what a scan learns (and pays for)
  other: new Counter('scan_look_ups_other'), // anything else: a key found, an error
  honestLatency: new Trend('honest_look_up_latency', true), // a real key looked up for a real payer
  honestRefused: new Counter('honest_look_ups_refused'),
  honestErrors: new Rate('honest_look_up_errors'),
};

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const ANSWERS = http.expectedStatuses(200, 404, 429);

function lookUp(key, payerId, name) {
  return http.post(`${config.apiUrl}/directory/lookups`, JSON.stringify({ key }), {
    headers: Object.assign({ 'PI-PayerId': payerId }, JSON_HEADERS),
    timeout: `${config.requestTimeoutSeconds}s`,
    responseCallback: ANSWERS,
    tags: { name },
  });
}

/** One look-up of a key nobody registered, for an end user never seen before. */
export function scanOne(index) {
  const res = lookUp(`scan-${Math.random().toString(36).slice(2)}-${index}@pagora.example`,
    cpfOf(randomHex32()), 'POST /directory/lookups (scan)');
  if (res.status === 429) {
    scanMetrics.refused.add(1);
  } else if (res.status === 404) {
    scanMetrics.missing.add(1);
  } else {
    scanMetrics.other.add(1);
  }
}

/** One honest look-up: a payer of the run's bank looks up another customer's key. */
export function honestOne(data, index) {
  const { customers, payers } = data.participants;
  const payer = payers[index % payers.length];
  let payee = customers[(index * 7 + 3) % customers.length];
  if (payee === payer) {
    payee = customers[(customers.indexOf(payer) + 1) % customers.length];
  }
  const res = lookUp(keyOf(payee), cpfOf(payer), 'POST /directory/lookups (honest)');
  const ok = check(res, { 'an honest look-up answers the key\'s account': (r) => r.status === 200 });
  scanMetrics.honestErrors.add(ok ? 0 : 1);
  if (ok) {
    scanMetrics.honestLatency.add(res.timings.duration);
  } else if (res.status === 429) {
    scanMetrics.honestRefused.add(1);
  }
}

function randomHex32() {
  let hex = '';
  while (hex.length < 32) {
    hex += Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, '0');
  }
  return hex;
}
