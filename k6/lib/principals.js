// Participants' names and the bank an account belongs to: pure functions (selftest.js checks them).
// Principal names are the services' (settlement's Caller.principalName): `operator`, `ispb-` + 8 digits.

export const OPERATOR = 'operator';
const BANK_PRINCIPAL = /^ispb-([0-9]{8})$/;

/** { principal, operator, ispb } of a principal name; ispb is null for the operator. */
export function callerOf(principal) {
  if (principal === OPERATOR) {
    return Object.freeze({ principal, operator: true, ispb: null });
  }
  const match = BANK_PRINCIPAL.exec(principal);
  if (!match) {
    throw new Error(`PARTICIPANT must be 'operator' or 'ispb-' and 8 digits, got '${principal}'`);
  }
  return Object.freeze({ principal, operator: false, ispb: Number(match[1]) });
}

export function bankPrincipal(ispb) {
  return `ispb-${String(ispb).padStart(8, '0')}`;
}

/**
 * The ISPB of the bank an account belongs to: account ids encode it (settlement's ChartOfAccounts: the
 * low 32 bits of the id's high half, hex digits 8..15 of its 32).
 */
export function bankOf(accountId) {
  if (typeof accountId !== 'string' || !/^[0-9a-f]{32}$/.test(accountId)) {
    throw new Error(`not an account id: '${accountId}'`);
  }
  return parseInt(accountId.slice(8, 16), 16);
}
