// Payment generation and sending: one payment (POST /payments) or one batch (POST /payments/batch) per
// iteration, a unique Idempotency-Key per payment, and deliberate duplicates (DUP_SHARE), key re-uses
// with another amount (CONFLICT_SHARE) and insufficient-funds payments (NSF_SHARE). KEY_SHARE of the payments name
// their payee by its PIX key and QR_SHARE by a static BR Code of it, each after a look-up of the key for the payer's
// end user (docs/directory.md); the others by account.
//
// With LOG_ANSWERS=1 every answer is one tab-separated console line (infra/local/pagora's demo report,
// local-runtime's AcceptedPayments, reads them back from k6's --log-output file):
//   ACCEPTED    key  paymentId  httpStatus  first|dup
//   REFUSED     key  httpStatus problemType       (a payment the suite expected to be accepted)
//   UNANSWERED  key  httpStatus                   (no answer or 5xx: the outcome is unknown to the client)
//   CONFLICT    key  httpStatus                   (a deliberate re-use of the key with another amount, refused)
import http from 'k6/http';
import exec from 'k6/execution';
import { check } from 'k6';
import { Counter, Gauge, Rate, Trend } from 'k6/metrics';
import { config } from './config.js';
import { verifyPayments } from './settlement.js';
import { brCodeOf, cpfOf, keyOf } from './keys.js';

export const metrics = {
  acceptLatency: new Trend('accept_latency', true), // POST /payments -> 202, first sends
  batchLatency: new Trend('batch_latency', true), // POST /payments/batch -> 200
  accepted: new Counter('payments_accepted'), // new payment ids the API answered
  acceptedAt: new Gauge('accept_epoch_ms'), // min/max: the first and the last acceptance
  errors: new Rate('payment_errors'), // per payment request: no answer, 5xx or an unexpected answer
  unexpected: new Counter('unexpected_answers'),
  unanswered: new Counter('payments_unanswered'),
  duplicates: new Counter('duplicates_answered_same_id'),
  conflicts: new Counter('conflicting_resends_refused'),
  nsfSent: new Counter('nsf_payments_accepted'),
  lookUpLatency: new Trend('look_up_latency', true), // POST /directory/lookups -> 200
  byKey: new Counter('payments_by_key'), // payments sent by key or by BR Code (after their look-up)
};

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const ACCEPTED = http.expectedStatuses(202);
const BATCH_OK = http.expectedStatuses(200);
const KEY_REUSE_REFUSED = http.expectedStatuses(409, 422);
const LOOKED_UP = http.expectedStatuses(200);
const KINDS = ['normal', 'dup', 'conflict', 'nsf'];

/** The payment of a given index: deterministic, so a re-send carries exactly the same body. */
export function paymentOf(data, index, kind) {
  // The payer is always a customer of the run's bank (the only bank whose money this run may move).
  const { customers, payers, hot, dry } = data.participants;
  let payer;
  let amountCentavos = config.amountMinCentavos
    + (hash(index, 3) % (config.amountMaxCentavos - config.amountMinCentavos + 1));
  if (kind === 'nsf' && dry.length > 0) {
    payer = dry[hash(index, 1) % dry.length]; // an account nobody funded or pays
  } else if (hot.length > 0 && unit(index, 6) < config.hotShare) {
    payer = hot[hash(index, 1) % hot.length];
  } else {
    payer = payers[hash(index, 1) % payers.length];
  }
  if (kind === 'nsf' && dry.length === 0) {
    amountCentavos = data.participants.nsfAmountCentavos; // more than any customer can hold
  }
  let payee = customers[hash(index, 2) % customers.length];
  if (payee === payer) {
    payee = customers[(customers.indexOf(payer) + 1) % customers.length];
  }
  const roll = unit(index, 7);
  return {
    key: `k6-${data.runId}-${scenarioName()}-${index}`,
    kind,
    via: roll < config.keyShare ? 'key' : roll < config.keyShare + config.qrShare ? 'qr' : 'account',
    body: { payerAccountId: payer, payeeAccountId: payee, amountCentavos, description: `k6 ${scenarioName()} ${index}` },
  };
}

/**
 * What goes on the wire for a payment: its body by account, or by key or BR Code with the end-to-end id its look-up
 * reserved (`lookUp`, done once: a re-send carries the same). `payment.body` stays the account view the read model
 * is judged against.
 */
function wire(payment) {
  if (payment.via === 'account') {
    return payment.body;
  }
  const { payerAccountId, payeeAccountId, amountCentavos, description } = payment.body;
  const key = keyOf(payeeAccountId);
  if (payment.via === 'key') {
    return { payerAccountId, payeeKey: key, amountCentavos, description, endToEndId: payment.endToEndId };
  }
  // The code fixes the amount: the payment takes it from there.
  return { payerAccountId, brCode: brCodeOf(key, amountCentavos, '***'), description,
    endToEndId: payment.endToEndId };
}

/**
 * Looks up the payee's key of every payment by key or code in `payments` (at once, for the payer's end user), and
 * keeps each one's end-to-end id. Answers the payments whose look-up failed, recorded as their payment would be.
 */
function lookUp(payments, tags) {
  const asked = payments.filter((p) => p.via !== 'account' && p.endToEndId === undefined);
  if (asked.length === 0) {
    return [];
  }
  const requests = asked.map((p) => ['POST', `${config.apiUrl}/directory/lookups`,
    JSON.stringify({ key: keyOf(p.body.payeeAccountId) }), {
      headers: Object.assign({ 'PI-PayerId': cpfOf(p.body.payerAccountId) }, JSON_HEADERS),
      timeout: `${config.requestTimeoutSeconds}s`,
      responseCallback: LOOKED_UP,
      tags: Object.assign({ name: 'POST /directory/lookups' }, tags),
    }]);
  const answers = http.batch(requests);
  const failed = [];
  asked.forEach((p, i) => {
    const res = answers[i];
    const id = res.status === 200 ? field(res, 'endToEndId') : null;
    const ok = check(res, {
      'a look-up of a registered key answers its account and an end-to-end id':
        () => typeof id === 'string' && field(res, 'accountId') === p.body.payeeAccountId,
    });
    if (ok) {
      metrics.lookUpLatency.add(res.timings.duration, tags);
      metrics.byKey.add(1, tags);
      p.endToEndId = id;
    } else {
      failed.push(p);
      metrics.errors.add(1, tags);
      if (res.status === 0 || res.status >= 500) {
        metrics.unanswered.add(1, tags);
        log(`UNANSWERED\t${p.key}\t${res.status}`);
      } else {
        metrics.unexpected.add(1, tags);
        log(`REFUSED\t${p.key}\t${res.status}\t${problemType(safeJson(res))}`);
      }
    }
  });
  return failed;
}

/** What to do with payment `index`: smoke cycles through every kind, the others roll against the shares. */
export function kindOf(index) {
  if (config.scenario === 'smoke') {
    return KINDS[index % KINDS.length];
  }
  const roll = unit(index, 4);
  if (roll < config.nsfShare) {
    return 'nsf';
  }
  if (roll < config.nsfShare + config.dupShare) {
    return 'dup';
  }
  if (roll < config.nsfShare + config.dupShare + config.conflictShare) {
    return 'conflict';
  }
  return 'normal';
}

export function isVerified(index) {
  return unit(index, 5) < config.verifyShare;
}

/** One iteration of the single-payment scenarios. `tags` go on every request and metric sample. */
export function sendOne(data, index, tags) {
  const payment = paymentOf(data, index, kindOf(index));
  if (lookUp([payment], tags).length > 0) {
    return;
  }
  const body = JSON.stringify(wire(payment));
  const first = post(payment.key, body, ACCEPTED, tags);
  const acceptedAtMs = Date.now();
  const paymentId = recordSingle(payment, first, 'first', tags);
  if (paymentId === null) {
    return;
  }
  if (payment.kind === 'dup') {
    const again = post(payment.key, body, ACCEPTED, tags);
    const againId = recordSingle(payment, again, 'dup', tags);
    const same = check(again, {
      'a duplicate re-send answers the same payment id': () => againId === paymentId,
      'a duplicate re-send is marked Idempotent-Replayed': (r) => r.headers['Idempotent-Replayed'] === 'true',
    });
    (same ? metrics.duplicates : metrics.unexpected).add(1, tags);
  } else if (payment.kind === 'conflict') {
    const other = JSON.stringify(Object.assign({}, wire(payment), { amountCentavos: payment.body.amountCentavos + 1 }));
    const refused = post(payment.key, other, KEY_REUSE_REFUSED, tags);
    const ok = check(refused, { 'a key re-used for another payment is refused (409/422)': (r) => r.status === 409 || r.status === 422 });
    metrics.errors.add(ok ? 0 : 1, tags);
    if (ok) {
      metrics.conflicts.add(1, tags);
      log(`CONFLICT\t${payment.key}\t${refused.status}`);
    } else {
      metrics.unexpected.add(1, tags);
      recordSingle(payment, refused, 'dup', tags);
    }
  }
  if (isVerified(index)) {
    verifyPayments([{ id: paymentId, payment }], acceptedAtMs, tags);
  }
}

/** One iteration of bulk: a batch of BATCH_SIZE payments, then the batch's duplicates and key re-uses. */
export function sendBatch(data, batchIndex, tags) {
  const all = [];
  for (let i = 0; i < config.batchSize; i++) {
    const index = batchIndex * config.batchSize + i;
    all.push(paymentOf(data, index, kindOf(index)));
  }
  // A payment whose look-up failed is recorded there and not sent.
  const failed = lookUp(all, tags);
  const payments = all.filter((p) => !failed.includes(p));
  if (payments.length === 0) {
    return undefined;
  }
  const res = postBatch(payments.map((p) => Object.assign({ idempotencyKey: p.key }, wire(p))), tags);
  const acceptedAtMs = Date.now();
  const ids = recordBatch(payments, res, 'first', tags);
  if (res.status === 200) {
    metrics.batchLatency.add(res.timings.duration, tags);
  }

  // Re-send, in one more batch, the duplicates (same body: REPLAYED, same id) and the key re-uses
  // (another amount: REJECTED idempotency-key-reused) of the items that were accepted.
  const resend = [];
  payments.forEach((p, i) => {
    if (ids[i] !== null && (p.kind === 'dup' || p.kind === 'conflict')) {
      const body = p.kind === 'dup' ? wire(p) : Object.assign({}, wire(p), { amountCentavos: p.body.amountCentavos + 1 });
      resend.push({ payment: p, id: ids[i], item: Object.assign({ idempotencyKey: p.key }, body) });
    }
  });
  if (resend.length > 0) {
    const again = postBatch(resend.map((r) => r.item), tags);
    const results = batchResults(again, resend.length);
    if (results === null && (again.status === 0 || again.status >= 500)) {
      // No answer (timeout, 5xx): nothing to judge; counted like any unanswered request.
      metrics.errors.add(1, tags);
      metrics.unanswered.add(resend.length, tags);
      check(again, { 'payment-api answers (no timeout, no 5xx)': () => false });
      resend.forEach((r) => log(`UNANSWERED\t${r.payment.key}\t${again.status}`));
      return finishBatch(payments, ids, batchIndex, acceptedAtMs, tags);
    }
    metrics.errors.add(results === null ? 1 : 0, tags);
    resend.forEach((r, i) => {
      const result = results === null ? null : results[i];
      if (r.payment.kind === 'dup') {
        const ok = check(result, { 'a duplicate batch item is REPLAYED with the same payment id':
          (x) => x !== null && x.status === 'REPLAYED' && x.paymentId === r.id });
        (ok ? metrics.duplicates : metrics.unexpected).add(1, tags);
        if (ok) {
          log(`ACCEPTED\t${r.payment.key}\t${result.paymentId}\t${again.status}\tdup`);
        }
      } else {
        const ok = check(result, { 'a batch item re-using a key for another payment is refused':
          (x) => x !== null && x.status === 'REJECTED' && /idempotency-key-reused$/.test(problemType(x.problem)) });
        (ok ? metrics.conflicts : metrics.unexpected).add(1, tags);
        if (ok) {
          log(`CONFLICT\t${r.payment.key}\t${again.status}`);
        }
      }
    });
  }
  return finishBatch(payments, ids, batchIndex, acceptedAtMs, tags);
}

// Follows the batch's sampled ids together: the VU waits for the slowest only.
function finishBatch(payments, ids, batchIndex, acceptedAtMs, tags) {
  const sampled = payments.map((payment, i) => ({ id: ids[i], payment }))
    .filter((p, i) => p.id !== null && isVerified(batchIndex * config.batchSize + i));
  if (sampled.length > 0) {
    verifyPayments(sampled, acceptedAtMs, tags);
  }
}

function post(key, body, expected, tags) {
  return failover((api) => http.post(`${api}/payments`, body, {
    headers: Object.assign({ 'Idempotency-Key': key }, JSON_HEADERS),
    timeout: `${config.requestTimeoutSeconds}s`,
    responseCallback: expected,
    tags: Object.assign({ name: 'POST /payments' }, tags),
  }));
}

function postBatch(items, tags) {
  return failover((api) => http.post(`${api}/payments/batch`, JSON.stringify({ payments: items }), {
    headers: JSON_HEADERS,
    timeout: `${config.requestTimeoutSeconds}s`,
    responseCallback: BATCH_OK,
    tags: Object.assign({ name: 'POST /payments/batch' }, tags),
  }));
}

// With several payment-api instances (API_URL's list), a call no instance answered at all (status 0: refused, reset,
// timed out) goes once to each other instance, as a client behind a load balancer would see it. Every payment carries
// its idempotency key, so a call that did arrive before its connection broke is replayed, never paid twice.
// A retry answered 429 or 5xx says nothing of the first attempt, which may have arrived: the call stays unanswered
// (its payment may exist), never counted as refused.
function failover(send) {
  const res = send(config.apiUrl);
  const first = config.apiUrls.indexOf(config.apiUrl);
  for (let step = 1; res.status === 0 && step < config.apiUrls.length; step++) {
    const again = send(config.apiUrls[(first + step) % config.apiUrls.length]);
    if (again.status !== 0 && again.status !== 429 && again.status < 500) {
      return again;
    }
  }
  return res;
}

// Records a POST /payments answer; returns the payment id of a 202, else null.
function recordSingle(payment, res, attempt, tags) {
  if (res.status === 202) {
    const id = field(res, 'paymentId');
    const replayed = res.headers['Idempotent-Replayed'] === 'true';
    if (check(res, { '202 carries a paymentId': () => typeof id === 'string' && id.length === 32 })) {
      metrics.errors.add(0, tags);
      log(`ACCEPTED\t${payment.key}\t${id}\t${res.status}\t${attempt}`);
      if (attempt === 'first') {
        metrics.acceptLatency.add(res.timings.duration, tags);
        if (!replayed) {
          accepted(payment, 1, tags);
        }
      }
      return id;
    }
  }
  metrics.errors.add(1, tags);
  if (res.status === 0 || res.status >= 500) {
    metrics.unanswered.add(1, tags);
    log(`UNANSWERED\t${payment.key}\t${res.status}`);
    check(res, { 'payment-api answers (no timeout, no 5xx)': () => false });
    return null;
  }
  // Every payment the suite sends is well-formed, between existing accounts: a refusal is unexpected.
  metrics.unexpected.add(1, tags);
  log(`REFUSED\t${payment.key}\t${res.status}\t${problemType(safeJson(res))}`);
  check(res, { 'a well-formed payment is accepted (202)': () => false });
  return null;
}

// Records a batch answer; returns, per item, the payment id it was given or null.
function recordBatch(payments, res, attempt, tags) {
  const results = batchResults(res, payments.length);
  const ids = payments.map(() => null);
  if (results === null) {
    const unanswered = res.status === 0 || res.status >= 500;
    metrics.errors.add(1, tags);
    (unanswered ? metrics.unanswered : metrics.unexpected).add(payments.length, tags);
    check(res, { 'the batch is answered 200 with one result per item': () => false });
    payments.forEach((p) => log(unanswered ? `UNANSWERED\t${p.key}\t${res.status}`
      : `REFUSED\t${p.key}\t${res.status}\t${problemType(safeJson(res))}`));
    return ids;
  }
  metrics.errors.add(0, tags);
  let fresh = 0;
  payments.forEach((p, i) => {
    const result = results[i];
    if (result.status === 'ACCEPTED' || result.status === 'REPLAYED') {
      ids[i] = result.paymentId;
      log(`ACCEPTED\t${p.key}\t${result.paymentId}\t${res.status}\t${attempt}`);
      if (result.status === 'ACCEPTED') {
        fresh++;
        if (p.kind === 'nsf') {
          metrics.nsfSent.add(1, tags);
        }
      }
    } else if (result.status === 'UNKNOWN') {
      // Not a refusal: the payment may be accepted and settle (payment-api's OpenAPI document: not final).
      metrics.unanswered.add(1, tags);
      log(`UNANSWERED\t${p.key}\t${res.status}`);
    } else {
      metrics.unexpected.add(1, tags);
      log(`REFUSED\t${p.key}\t${res.status}\t${problemType(result.problem)}`);
    }
  });
  check(results, { 'every batch item is accepted': () => ids.every((id) => id !== null) });
  if (fresh > 0) {
    metrics.accepted.add(fresh, tags);
    metrics.acceptedAt.add(Date.now(), tags);
  }
  return ids;
}

function accepted(payment, count, tags) {
  metrics.accepted.add(count, tags);
  metrics.acceptedAt.add(Date.now(), tags);
  if (payment.kind === 'nsf') {
    metrics.nsfSent.add(count, tags);
  }
}

// The results array of a 200 batch answer, one per item in order, or null.
function batchResults(res, expectedCount) {
  if (res.status !== 200) {
    return null;
  }
  const results = field(res, 'results');
  if (!Array.isArray(results) || results.length !== expectedCount
    || results.some((r, i) => r === null || r.index !== i)) {
    return null;
  }
  return results;
}

function field(res, name) {
  try {
    return res.json(name);
  } catch (e) {
    return undefined;
  }
}

function safeJson(res) {
  try {
    return res.json();
  } catch (e) {
    return null;
  }
}

function problemType(problem) {
  return problem && typeof problem.type === 'string' ? problem.type : '';
}

function log(line) {
  if (config.logAnswers) {
    console.log(line);
  }
}

/**
 * The scenario a payment belongs to, in its key: with a warm-up, the warm-up's index i and the run's index i are two
 * payments, not a replay.
 */
function scenarioName() {
  return config.warmupSeconds > 0 ? exec.scenario.name : config.scenario;
}

/** The index of this iteration in its scenario, across all VUs (0, 1, 2, ...). */
export function iterationIndex() {
  return exec.scenario.iterationInTest;
}

// A small deterministic integer hash: the same index always makes the same payment.
export function hash(index, salt) {
  let x = (index + 1) * 0x9e3779b1 + salt * 0x85ebca6b;
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

function unit(index, salt) {
  return hash(index, salt) / 4294967296;
}
