// The participants a run pays between: read from ACCOUNTS_FILE (what infra/local/pagora seeded), or
// created through payment-api as the run's participant (lib/identity.js): the operator registers banks and
// funds their reserves (k6/banks.js), a bank opens and funds its own customers. Payers are always the
// customers of the run's bank (only the payer's bank may move its money); payees may be any bank's.
import { cpfOf, keyOf } from './keys.js';
import http from 'k6/http';
import { config } from './config.js';
import { caller } from './identity.js';
import { bankOf } from './principals.js';

// open() works only in the init context: the file is read when the script loads.
const accountsText = config.accountsFile ? open(config.accountsFile) : null;

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const PARALLEL_REQUESTS = 50; // http.batch chunk: setup is quick without flooding the API
// A dry account's number: opened, never funded, never paid: every payment it sends lacks funds.
const DRY_ACCOUNT_NUMBER = 990001;

/**
 * Returns { source, customers, payers, hot, dry, nsfAmountCentavos, banks }. customers are paid; payers
 * (the customers of the run's bank) pay; hot are the first payers (the hot-account payers); dry accounts
 * (at the run's bank) only send the NSF payments.
 */
export function prepareParticipants(runId) {
  if (caller.operator) {
    throw new Error('payments are sent by the payer\'s bank, never the operator: run as a bank, '
      + 'PARTICIPANT=ispb-NNNNNNNN (the operator registers banks with k6/banks.js)');
  }
  const participants = accountsText !== null ? fromFile(accountsText) : openCustomers(runId);
  const payers = participants.customers.filter((id) => bankOf(id) === caller.ispb);
  if (payers.length === 0) {
    throw new Error(`${participants.source}: no customer of ${caller.principal}, the run's bank, to pay from`);
  }
  const hot = payers.slice(0, Math.min(config.hotAccounts, payers.length));
  return Object.assign(participants, { payers, hot });
}

// "bank ISPB RESERVE" and "customer ACCOUNT_ID FUNDED" lines (infra/local/pagora seed; # comments).
function fromFile(textContent) {
  const customers = [];
  const banks = [];
  let fundedCentavos = 0;
  for (const line of textContent.split('\n')) {
    const fields = line.trim().split(/\s+/);
    if (fields[0] === 'customer') {
      customers.push(fields[1]);
      fundedCentavos += Number(fields[2]);
    } else if (fields[0] === 'bank') {
      banks.push(Number(fields[1]));
    }
  }
  if (customers.length < 2) {
    throw new Error(`${config.accountsFile} lists ${customers.length} customers; at least 2 are needed`);
  }
  // No customer can hold more than every customer was funded with: one centavo more always lacks funds
  // (the file's accounts are paid only by runs that use the file).
  const nsfAmountCentavos = fundedCentavos + 1;
  if (config.nsfShare > 0 && nsfAmountCentavos > 10000000000) {
    throw new Error(`NSF payments would need ${nsfAmountCentavos} centavos, above payment-api's default maximum; set NSF_SHARE=0`);
  }
  return { source: `file ${config.accountsFile}`, banks, customers, dry: [], nsfAmountCentavos };
}

/** The operator's part of seeding (k6/banks.js): BANKS banks, each with a reserve. */
export function registerBanks(runId) {
  if (!caller.operator) {
    throw new Error(`only the operator registers banks and funds reserves; this run is ${caller.principal}`);
  }
  const banks = seededBanks();
  // Banks: 201 when new, 200 when an earlier run registered them under the same name.
  expectAll(banks.map((ispb) => post('/banks', { ispb, name: `k6 bank ${ispb}` })), [200, 201], 'register banks');
  expectAll(banks.map((ispb) => post(`/banks/${ispb}/reserve-fundings`, { amountCentavos: config.reserveFundingCentavos },
    `k6-${runId}-reserve-${ispb}`)), [200, 201], 'fund bank reserves');
  return banks;
}

/** The ISPBs the suite seeds itself: BANK_ISPB_BASE+1 ... BANK_ISPB_BASE+BANKS. */
function seededBanks() {
  const banks = [];
  for (let b = 1; b <= config.banks; b++) {
    banks.push(config.bankIspbBase + b);
  }
  return banks;
}

// The bank's part of seeding: ACCOUNTS_PER_BANK customers of the run's bank, funded, and one dry account.
// Only the run's bank: no other bank's customer can be opened or funded by it.
function openCustomers(runId) {
  const ispb = caller.ispb;
  const openings = [];
  for (let n = 1; n <= config.accountsPerBank; n++) {
    openings.push({ ispb, accountNumber: n });
  }
  const customers = expectAll(openings.map((body) => post('/accounts', body)), [200, 201],
    `open customer accounts (is bank ${ispb} registered? k6 run -e PARTICIPANT=operator k6/banks.js)`)
    .map((res) => res.json('accountId'));
  const dry = expectAll([post('/accounts', { ispb, accountNumber: DRY_ACCOUNT_NUMBER })], [200, 201],
    'open the dry account').map((res) => res.json('accountId'));

  const fundings = customers.map((id, i) => post(`/accounts/${id}/fundings`,
    { amountCentavos: i < config.hotAccounts ? config.hotFundingCentavos : config.fundingCentavos }, `k6-${runId}-fund-${id}`));
  expectAll(fundings, [200, 201], 'fund customers');
  // Each customer's PIX key, as seeding registers them (lib/keys.js), so that payments may name it.
  expectAll(customers.map((id, i) => post('/directory/keys', { keyType: 'EMAIL', key: keyOf(id), accountId: id,
    holderName: `Cliente ${i + 1}`, holderTaxId: cpfOf(id) }, `k6-key-${id}`)), [200, 201], 'register customers\' keys');
  return { source: `created by ${caller.principal} through ${config.apiUrl}`, banks: [ispb], customers, dry, nsfAmountCentavos: 0 };
}

function post(path, body, idempotencyKey) {
  const headers = idempotencyKey ? Object.assign({ 'Idempotency-Key': idempotencyKey }, JSON_HEADERS) : JSON_HEADERS;
  return ['POST', `${config.apiUrl}${path}`, JSON.stringify(body),
    { headers, timeout: '30s', tags: { name: `setup ${path.replace(/[0-9a-f]{32}|[0-9]{5,}/g, '{id}')}` } }];
}

// Sends the requests PARALLEL_REQUESTS at a time; every answer must have one of the statuses.
function expectAll(requests, statuses, what) {
  const responses = [];
  for (let i = 0; i < requests.length; i += PARALLEL_REQUESTS) {
    const chunk = http.batch(requests.slice(i, i + PARALLEL_REQUESTS));
    chunk.forEach((res, j) => {
      if (!statuses.includes(res.status)) {
        const [method, target, body] = requests[i + j];
        throw new Error(`setup could not ${what}: ${method} ${target} ${body} answered ${res.status} ${res.body}`);
      }
    });
    responses.push(...chunk);
  }
  return responses;
}
