// Pagora demo load: PAYMENTS payments at RATE per second (constant arrival rate) against payment-api on
// 127.0.0.1, between the customers that infra/local/pagora seeded. Run by `infra/local/pagora demo`;
// by hand:
//   k6 run --no-usage-report --log-format=raw --log-output=file=var/demo/k6-payments.log \
//     --summary-export=var/demo/k6-summary.json \
//     -e ACCOUNTS_FILE=$PWD/var/demo/accounts.tsv -e PAYMENTS=5000 -e RATE=200 k6/demo.js
//
// Every answer is logged as one tab-separated line (the demo report reads them back):
//   ACCEPTED    key  paymentId  httpStatus  first|dup
//   REFUSED     key  httpStatus problemType
//   UNANSWERED  key  httpStatus              (no answer or 5xx: the outcome is unknown to the client)
//   CONFLICT    key  httpStatus              (a deliberate re-send of the key with another amount, refused)
// A share DUP_SHARE of payments is re-sent with the same Idempotency-Key and body (it must answer the same
// payment id); a share CONFLICT_SHARE is re-sent with the same key and another amount (it must be refused).
import http from 'k6/http';
import exec from 'k6/execution';
import { check } from 'k6';
import { Counter, Trend } from 'k6/metrics';

const BASE_URL = __ENV.BASE_URL || 'http://127.0.0.1:8080';
const PAYMENTS = int('PAYMENTS', 5000);
const RATE = int('RATE', 200);
const DUP_SHARE = Number(__ENV.DUP_SHARE || '0.02');
const CONFLICT_SHARE = Number(__ENV.CONFLICT_SHARE || '0.005');
const RUN_ID = __ENV.RUN_ID || `${Date.now()}`;
const ACCOUNTS_FILE = __ENV.ACCOUNTS_FILE;

// The load goes to this machine only: refuse anything but the loopback interface.
if (!/^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):[0-9]{1,5}$/.test(BASE_URL)) {
  throw new Error(`BASE_URL must be http://127.0.0.1:<port> (loopback only), got ${BASE_URL}`);
}
if (!ACCOUNTS_FILE) {
  throw new Error('ACCOUNTS_FILE (the seeded accounts.tsv) is required');
}
if (PAYMENTS < 1 || PAYMENTS > 1000000 || RATE < 1 || RATE > 10000) {
  throw new Error('PAYMENTS in 1..1000000 and RATE in 1..10000');
}

// "customer <accountId> <fundedCentavos>" lines; banks are not payers.
const customers = open(ACCOUNTS_FILE).split('\n')
  .map((line) => line.trim().split(/\s+/))
  .filter((fields) => fields[0] === 'customer')
  .map((fields) => fields[1]);
if (customers.length < 2) {
  throw new Error(`${ACCOUNTS_FILE} lists ${customers.length} customers; at least 2 are needed`);
}

const durationSeconds = Math.ceil(PAYMENTS / RATE);

export const options = {
  scenarios: {
    payments: {
      executor: 'constant-arrival-rate',
      rate: RATE,
      timeUnit: '1s',
      duration: `${durationSeconds}s`,
      // Enough VUs up front for ~2 s of answers: k6 drops iterations while it starts more.
      preAllocatedVUs: Math.min(600, Math.max(20, RATE * 2)),
      maxVUs: Math.min(1000, Math.max(100, RATE * 4)),
      gracefulStop: '30s',
    },
  },
  thresholds: {
    // Transport errors and unexpected statuses (expected ones are declared per request).
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
    unexpected_answers: ['count<1'],
  },
  summaryTrendStats: ['avg', 'min', 'med', 'p(50)', 'p(90)', 'p(95)', 'p(99)', 'max', 'count'],
};

const acceptLatency = new Trend('accept_latency', true);
const unexpectedAnswers = new Counter('unexpected_answers');
const duplicatesAnswered = new Counter('duplicates_answered_same_id');
const conflictsRefused = new Counter('conflicting_resends_refused');

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const ACCEPTED = http.expectedStatuses(202);
const CONFLICT_REFUSED = http.expectedStatuses(409, 422);

export default function () {
  const index = exec.scenario.iterationInTest;
  if (index >= PAYMENTS) {
    return; // the arrival-rate schedule rounds up to whole seconds
  }
  const r1 = hash(index, 1);
  const payerIndex = r1 % customers.length;
  let payeeIndex = hash(index, 2) % (customers.length - 1);
  if (payeeIndex >= payerIndex) {
    payeeIndex += 1; // never the payer itself
  }
  const amountCentavos = 100 + (hash(index, 3) % 4901); // R$ 1.00 .. R$ 50.00
  const key = `demo-${RUN_ID}-${index}`;
  const body = JSON.stringify({
    payerAccountId: customers[payerIndex],
    payeeAccountId: customers[payeeIndex],
    amountCentavos,
    description: `demo payment ${index}`,
  });

  const first = post(key, body, ACCEPTED);
  const paymentId = record(key, first, 'first');
  if (paymentId) {
    acceptLatency.add(first.timings.duration);
  }

  const roll = (hash(index, 4) % 100000) / 100000;
  if (paymentId && roll < DUP_SHARE) {
    const again = post(key, body, ACCEPTED);
    const againId = record(key, again, 'dup');
    const same = check(again, { 'a duplicate re-send answers the same payment id': () => againId === paymentId });
    if (same) {
      duplicatesAnswered.add(1);
    } else {
      unexpectedAnswers.add(1);
    }
  } else if (paymentId && roll < DUP_SHARE + CONFLICT_SHARE) {
    const conflicting = JSON.stringify({
      payerAccountId: customers[payerIndex],
      payeeAccountId: customers[payeeIndex],
      amountCentavos: amountCentavos + 1,
    });
    const refused = post(key, conflicting, CONFLICT_REFUSED);
    const ok = check(refused, { 'a key re-used for another payment is refused': (r) => r.status === 409 || r.status === 422 });
    if (ok) {
      conflictsRefused.add(1);
      console.log(`CONFLICT\t${key}\t${refused.status}`);
    } else {
      unexpectedAnswers.add(1);
      record(key, refused, 'dup');
    }
  }
}

function post(key, body, expected) {
  return http.post(`${BASE_URL}/payments`, body, {
    headers: Object.assign({ 'Idempotency-Key': key }, JSON_HEADERS),
    timeout: '15s', // bounded: an unanswered request is logged UNANSWERED
    responseCallback: expected,
    tags: { name: 'POST /payments' },
  });
}

// Logs the answer; returns the payment id of a 202, else null.
function record(key, res, attempt) {
  if (res.status === 202) {
    let id = null;
    try {
      id = res.json('paymentId');
    } catch (e) {
      id = null;
    }
    if (check(res, { '202 carries a paymentId': () => typeof id === 'string' && id.length > 0 })) {
      console.log(`ACCEPTED\t${key}\t${id}\t${res.status}\t${attempt}`);
      return id;
    }
    unexpectedAnswers.add(1);
    return null;
  }
  if (res.status === 0 || res.status >= 500) {
    console.log(`UNANSWERED\t${key}\t${res.status}`);
    check(res, { 'payment-api answers': () => false });
    return null;
  }
  let type = '';
  try {
    type = res.json('type') || '';
  } catch (e) {
    type = '';
  }
  console.log(`REFUSED\t${key}\t${res.status}\t${type}`);
  // The demo only sends well-formed payments between existing accounts: a refusal here is unexpected.
  unexpectedAnswers.add(1);
  check(res, { 'a well-formed payment is accepted': () => false });
  return null;
}

// A small deterministic integer hash, so a run with the same PAYMENTS sends the same payments.
function hash(index, salt) {
  let x = (index + 1) * 0x9e3779b1 + salt * 0x85ebca6b;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

function int(name, fallback) {
  const value = __ENV[name];
  if (value === undefined || value === '') {
    return fallback;
  }
  const parsed = Number.parseInt(value, 10);
  if (!Number.isFinite(parsed)) {
    throw new Error(`${name} must be an integer, got ${value}`);
  }
  return parsed;
}
