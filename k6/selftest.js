// Offline self-test of the suite's pure helpers (no platform needed):
//   var/bin/k6 run --quiet k6/selftest.js      exits non-zero when a check fails
import { check } from 'k6';
import { histogramQuantile, parse } from './lib/prometheus.js';
import { isLoopback } from './lib/config.js';
import { bankOf, bankPrincipal, callerOf } from './lib/principals.js';

export const options = { iterations: 1, vus: 1, thresholds: { checks: ['rate==1'] } };

// Micrometer's exposition of a timer with a percentile histogram, two tag sets and exponent notation.
const SCRAPE = `
# HELP pagora_clearing_accept_to_settled_seconds accept to settled
# TYPE pagora_clearing_accept_to_settled_seconds histogram
pagora_clearing_accept_to_settled_seconds_bucket{application="clearing-service",le="0.05"} 10
pagora_clearing_accept_to_settled_seconds_bucket{application="clearing-service",le="0.1"} 50
pagora_clearing_accept_to_settled_seconds_bucket{application="clearing-service",le="0.25"} 90
pagora_clearing_accept_to_settled_seconds_bucket{application="clearing-service",le="+Inf"} 100
pagora_clearing_accept_to_settled_seconds_count{application="clearing-service"} 100
pagora_clearing_accept_to_settled_seconds_sum{application="clearing-service"} 12.5
pagora_payments_requests_total{application="payment-api",outcome="accepted"} 7.0
pagora_payments_requests_total{application="payment-api",outcome="replayed"} 2.0
pagora_x_bucket{a="1",le="5.0E-2"} 1
pagora_x_bucket{a="2",le="0.05"} 2
pagora_x_bucket{a="1",le="+Inf"} 3
pagora_x_bucket{a="2",le="+Inf"} 4
label_escape{text="a \\"quoted\\" } value",le="1"} 5
`;

export default function () {
  const p = parse(SCRAPE);
  const buckets = p.buckets('pagora_clearing_accept_to_settled_seconds_bucket');
  check(null, {
    'buckets are read by le': () => buckets['0.05'] === 10 && buckets['0.1'] === 50 && buckets['+Inf'] === 100,
    'the median interpolates inside its bucket': () => near(histogramQuantile(buckets, 0.5), 0.1 * 1), // rank 50 = le 0.1
    'p25 interpolates': () => near(histogramQuantile(buckets, 0.25), 0.05 + 0.05 * (15 / 40)),
    'p95 in the +Inf bucket answers the highest finite bound': () => near(histogramQuantile(buckets, 0.95), 0.25),
    'p05 interpolates from zero': () => near(histogramQuantile(buckets, 0.05), 0.025),
    'an empty histogram is NaN': () => Number.isNaN(histogramQuantile({ '+Inf': 0 }, 0.5)),
    'a histogram without +Inf is NaN': () => Number.isNaN(histogramQuantile({ 1: 3 }, 0.5)),
    'sums filter by label': () => p.sum('pagora_payments_requests_total', { outcome: 'accepted' }) === 7
      && p.sum('pagora_payments_requests_total') === 9,
    'an absent metric sums to 0 and is not had': () => p.sum('nope') === 0 && !p.has('nope'),
    'buckets of every tag set add up, 5.0E-2 = 0.05': () => {
      const b = p.buckets('pagora_x_bucket');
      return b['0.05'] === 3 && b['+Inf'] === 7;
    },
    'escaped label values parse': () => p.buckets('label_escape')['1'] === 5,
    'loopback targets pass': () => ['http://127.0.0.1:8080', 'http://localhost:8082', 'http://[::1]:8081', 'http://127.1.2.3:1']
      .every(isLoopback),
    'other targets do not': () => ['http://10.0.0.1:8080', 'http://example.com', 'http://127.0.0.1.evil.com:80',
      'http://localhost.evil.com'].every((t) => !isLoopback(t)),
    'https loopback targets pass': () => ['https://127.0.0.1:8080', 'https://localhost:8082'].every(isLoopback),
    // ChartOfAccounts: customer 5 of ISPB 60000001 (0x03938701), kind CUSTOMER (4) in the top byte.
    'an account id tells its bank': () => bankOf('04000000039387010000000000000005') === 60000001,
    'a malformed account id is refused': () => throws(() => bankOf('0400000003938701')),
    'a bank principal names its ISPB': () => callerOf('ispb-00000042').ispb === 42 && !callerOf('ispb-00000042').operator
      && bankPrincipal(42) === 'ispb-00000042',
    'the operator is no bank': () => callerOf('operator').operator && callerOf('operator').ispb === null,
    'other principals are refused': () => ['ispb-1', 'ispb-123456789', 'Operator', ''].every((p) => throws(() => callerOf(p))),
  });
}

function throws(f) {
  try {
    f();
    return false;
  } catch (e) {
    return true;
  }
}

function near(a, b) {
  return Math.abs(a - b) < 1e-9;
}
