// The operator's part of seeding, for runs that seed themselves (no ACCOUNTS_FILE): registers BANKS banks
// (ISPB BANK_ISPB_BASE+1...) and funds their reserves (RESERVE_FUNDING_CENTAVOS). Only the operator may;
// each bank then opens and funds its own customers in its own run (k6/README.md "Identity"):
//
//   SSL_CERT_FILE=var/tls/ca.crt var/bin/k6 run -e PARTICIPANT=operator k6/banks.js
import { check } from 'k6';
import { registerBanks } from './lib/setup.js';
import { tlsOptions } from './lib/identity.js';

export const options = Object.assign({ iterations: 1, vus: 1, thresholds: { checks: ['rate==1'] } }, tlsOptions());

export default function () {
  const runId = `${Date.now().toString(36)}`;
  const banks = registerBanks(runId);
  check(banks, { 'every bank is registered with a funded reserve': (b) => b.length > 0 });
  console.log(`registered and funded: ${banks.join(', ')}`);
}
