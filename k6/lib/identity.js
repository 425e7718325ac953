// Who this k6 run is: the participant whose client certificate it presents over mutual TLS
// (payment-api and reporting-service refuse every caller without one, k6/README.md "Identity").
//
// ONE certificate per k6 process. k6 (every version up to at least v1.8.1) cannot present a certificate
// per host: `tlsAuth[].domains` fills Go's tls.Config.NameToCertificate, a server-side field, and Go's
// client sends the first certificate of tlsAuth whose issuer the server accepts -- with one local CA,
// always the first one (grafana/k6#5153; k6/README.md shows the check). So a run acts as one
// participant, PARTICIPANT, and sends only what that participant may send: a bank pays from its own
// customers and reads its own payments; the operator registers banks and reads /stats and the metrics.
//
// The certificates are read here, in the init context (open() works nowhere else), from TLS_DIR in the
// layout of infra/local/pagora certs: participants/<operator|ispb-NNNNNNNN>.crt|.key. k6 has no option for
// a private CA: it trusts the system roots of Go's crypto/x509, so the run is given the local CA with
// SSL_CERT_FILE=<TLS_DIR>/ca.crt (never insecureSkipTLSVerify: the server is verified like any client would).
import { config } from './config.js';
import { bankPrincipal, callerOf } from './principals.js';

export const caller = callerOf(config.participant || defaultParticipant());

// open() resolves a relative path against this file's directory: the default TLS_DIR is the repository's.
const certificate = participantFile('crt');
const privateKey = participantFile('key');

/** k6 options: the run's client certificate (no `domains`: they select nothing, see above) and TLS 1.2+. */
export function tlsOptions() {
  return {
    tlsAuth: [{ cert: certificate, key: privateKey }],
    tlsVersion: { min: 'tls1.2', max: 'tls1.3' }, // what the services enable (pagora-tls.yaml)
  };
}

function participantFile(extension) {
  const path = `${config.tlsDir}/participants/${caller.principal}.${extension}`;
  try {
    return open(path);
  } catch (e) {
    const ispbs = caller.operator ? '' : ` --ispbs=${caller.ispb}`;
    throw new Error(`no ${extension} of ${caller.principal} at ${path} (TLS_DIR=${config.tlsDir}; `
      + `infra/local/pagora certs${ispbs} makes it): ${e}`);
  }
}

// Without PARTICIPANT: the first bank of ACCOUNTS_FILE, else the first bank the suite seeds itself.
function defaultParticipant() {
  if (config.accountsFile) {
    const firstBank = /^\s*bank\s+([0-9]+)/m.exec(open(config.accountsFile));
    if (firstBank) {
      return bankPrincipal(Number(firstBank[1]));
    }
  }
  return bankPrincipal(config.bankIspbBase + 1);
}
