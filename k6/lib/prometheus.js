// Reads a service's /actuator/prometheus (Prometheus text format 0.0.4) and estimates quantiles from
// histogram buckets the way PromQL's histogram_quantile() does.
import http from 'k6/http';

const SCRAPE_OK = http.expectedStatuses(200, 404); // 404: the endpoint is not exposed

/** The parsed samples of one scrape, or null when the endpoint does not answer. */
export function scrape(url) {
  const res = http.get(url, { timeout: '10s', responseCallback: SCRAPE_OK, tags: { name: 'GET /actuator/prometheus' } });
  if (res.status !== 200 || typeof res.body !== 'string') {
    return null;
  }
  return parse(res.body);
}

export function parse(textContent) {
  const samples = new Map(); // metric name -> [{ labels, value }]
  for (const line of textContent.split('\n')) {
    if (line === '' || line.startsWith('#')) {
      continue;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) {
      continue;
    }
    const value = parseValue(match[3]);
    if (Number.isNaN(value)) {
      continue;
    }
    if (!samples.has(match[1])) {
      samples.set(match[1], []);
    }
    samples.get(match[1]).push({ labels: parseLabels(match[2] || ''), value });
  }
  return {
    has: (name) => samples.has(name),
    /** Sum over every series of `name` whose labels include `filter`; 0 when there is none. */
    sum: (name, filter) => (samples.get(name) || [])
      .filter((s) => matches(s.labels, filter))
      .reduce((total, s) => total + s.value, 0),
    /** Cumulative bucket counts by `le`, summed over every other label (all instances, all tags). */
    buckets: (name) => {
      const byLe = {};
      for (const s of samples.get(name) || []) {
        const le = s.labels.le === undefined ? null : normalizeLe(s.labels.le);
        if (le !== null) {
          byLe[le] = (byLe[le] || 0) + s.value;
        }
      }
      return byLe;
    },
    /** { "label1=a,label2=b": value } summed per combination of the given labels. */
    series: (name, labelNames) => {
      const out = {};
      for (const s of samples.get(name) || []) {
        const key = labelNames.map((l) => `${l}=${s.labels[l] === undefined ? '' : s.labels[l]}`).join(',');
        out[key] = (out[key] || 0) + s.value;
      }
      return out;
    },
  };
}

/**
 * The q-quantile (0..1) of a histogram given as cumulative counts by upper bound ({ "0.005": 3, ...,
 * "+Inf": 10 }): linear interpolation inside the bucket that holds the rank; a rank in the +Inf bucket
 * answers the highest finite bound. In the unit of the bounds; NaN when empty.
 */
export function histogramQuantile(cumulativeByLe, q) {
  const bounds = Object.keys(cumulativeByLe)
    .map((le) => ({ le: le === '+Inf' ? Infinity : Number(le), count: cumulativeByLe[le] }))
    .sort((a, b) => a.le - b.le);
  if (bounds.length === 0 || bounds[bounds.length - 1].le !== Infinity) {
    return NaN;
  }
  const total = bounds[bounds.length - 1].count;
  if (total <= 0) {
    return NaN;
  }
  const rank = q * total;
  let lowerLe = 0;
  let lowerCount = 0;
  for (const bucket of bounds) {
    if (bucket.count >= rank) {
      if (bucket.le === Infinity) {
        return lowerLe;
      }
      const inBucket = bucket.count - lowerCount;
      return inBucket <= 0 ? bucket.le : lowerLe + (bucket.le - lowerLe) * ((rank - lowerCount) / inBucket);
    }
    lowerLe = bucket.le;
    lowerCount = bucket.count;
  }
  return lowerLe;
}

function parseLabels(textContent) {
  const labels = {};
  const pattern = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;
  let match;
  while ((match = pattern.exec(textContent)) !== null) {
    labels[match[1]] = match[2].replace(/\\(.)/g, (_, c) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

function parseValue(textContent) {
  if (textContent === '+Inf') {
    return Infinity;
  }
  if (textContent === '-Inf') {
    return -Infinity;
  }
  return Number(textContent);
}

// "0.005", "5.0E-3" and "0.0050" are one bucket: key by the number, "+Inf" stays.
function normalizeLe(le) {
  if (le === '+Inf') {
    return '+Inf';
  }
  const value = Number(le);
  return Number.isFinite(value) ? String(value) : null;
}

function matches(labels, filter) {
  if (!filter) {
    return true;
  }
  return Object.keys(filter).every((k) => labels[k] === filter[k]);
}
