# shellcheck shell=bash
# Participant identity for the local platform, sourced by infra/local/pagora: the certificates under var/tls
# (`certs`), which transport the services run with (mutual TLS, or the plain-http profile for local experiments)
# and how the launcher calls them (`service_url`, `curl_as`).
#
#   infra/local/pagora certs [--ispbs=60000001,60000002,...]
#
# Layout (every client reads it: the services, local-runtime's LocalTls, k6, curl, Prometheus):
#   var/tls/ca.crt, ca.key                         the local CA (EC P-256, self-signed)
#   var/tls/server.crt, server.key                 payment-api's and reporting-service's server certificate
#                                                  (SAN localhost, 127.0.0.1, payment-api, reporting-service,
#                                                  *.pagora.test)
#   var/tls/participants/operator.crt|.key         the switch operator (CN=operator)
#   var/tls/participants/monitor.crt|.key          the metrics scraper, Prometheus (CN=monitor): reads
#                                                  /actuator/prometheus and nothing else
#   var/tls/participants/ispb-<8 digits>.crt|.key  one bank each (CN=ispb-<8 digits>), the seeded banks' and
#                                                  any --ispbs given
# Keys are unencrypted PKCS#8 PEM, mode 600. Idempotent: the CA is reused; a certificate is made only when it is
# missing or no longer verifies against the CA (expired, or issued by a CA made since).

TLS="$VAR/tls"
PARTICIPANTS="$TLS/participants"
# Services with a participant-facing API: mutual TLS (service-support's CallerSecurityConfiguration).
# clearing-service has none and stays plain HTTP.
TLS_SERVICES=(payment-api reporting-service)
TLS_CA_DAYS=3650
TLS_LEAF_DAYS=825
# Where the transport the running platform was started with is kept (tls | plain-http).
TRANSPORT_FILE="$RUN/transport"

# The ISPB of seeded bank number 1..BANKS: the one copy of this formula (the seed step passes the list to
# local-runtime's Seed, and `certs` issues their certificates).
seeded_ispbs() {
  local bank
  for ((bank = 1; bank <= BANKS; bank++)); do printf '%08d\n' $((10000000 + bank * 1111)); done
}

bank_principal() { printf 'ispb-%08d' "$((10#$1))"; }

# The transport of this `up`: plain-http only when asked for (--plain-http or PAGORA_PLAIN_HTTP=1), loudly.
requested_transport() {
  if [[ "${PAGORA_PLAIN_HTTP:-}" == 1 ]]; then echo plain-http; else echo tls; fi
}

running_transport() { cat "$TRANSPORT_FILE" 2>/dev/null || echo tls; }

# demo, bench and chaos measure and prove the platform as it is meant to run: never without mutual TLS.
refuse_plain_http() {
  [[ "$(requested_transport)" == tls ]] \
    || die "$1 runs over mutual TLS only: unset PAGORA_PLAIN_HTTP (plain HTTP is for local experiments with 'up --plain-http')"
}

warn_plain_http() {
  banner "PLAIN HTTP (profile plain-http): payment-api and reporting-service run WITHOUT TLS and believe the
  Pagora-Participant header of anyone who can reach 127.0.0.1 -- local experiments only, never for a measurement"
}

uses_tls() {
  local service="$1"
  [[ " ${TLS_SERVICES[*]} " == *" $service "* && "$(running_transport)" == tls ]]
}

# service_url SERVICE PATH: the URL the launcher reaches a service's PATH at.
service_url() {
  local service="$1" path="$2" scheme=http
  uses_tls "$service" && scheme=https
  echo "$scheme://$HOST:${SERVICE_PORT[$service]}$path"
}

# curl_as PARTICIPANT SERVICE PATH [curl options...]: curl as the operator or a bank (ispb-NNNNNNNN): its client
# certificate over mutual TLS, or (plain-http) the identity header. PARTICIPANT "-" calls anonymously.
curl_as() {
  local participant="$1" service="$2" path="$3" identity=()
  shift 3
  if uses_tls "$service"; then
    identity=(--cacert "$TLS/ca.crt")
    [[ "$participant" == - ]] \
      || identity+=(--cert "$PARTICIPANTS/$participant.crt" --key "$PARTICIPANTS/$participant.key")
  elif [[ "$participant" != - ]]; then
    identity=(-H "Pagora-Participant: $participant")
  fi
  curl "${identity[@]}" "$@" "$(service_url "$service" "$path")"
}

# A certificate is current when it exists and verifies against the CA (also checks that it has not expired).
tls_current() {
  [[ -s "$1" && -s "$2" ]] && openssl verify -CAfile "$TLS/ca.crt" "$1" >/dev/null 2>&1
}

tls_ensure_ca() {
  if [[ -s "$TLS/ca.crt" && -s "$TLS/ca.key" ]]; then return; fi
  command -v openssl >/dev/null 2>&1 || die "the certificates need openssl (Debian: apt-get install openssl)"
  mkdir -p "$PARTICIPANTS"
  say "certs: a new local CA in $TLS/ca.crt (every certificate issued by an earlier one is issued again)"
  (
    umask 077
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days "$TLS_CA_DAYS" \
      -subj "/O=Pagora local/CN=Pagora local CA" -keyout "$TLS/ca.key.tmp" -out "$TLS/ca.crt.tmp" \
      -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  ) || die "openssl could not make the local CA"
  chmod 644 "$TLS/ca.crt.tmp"
  mv "$TLS/ca.key.tmp" "$TLS/ca.key"
  mv "$TLS/ca.crt.tmp" "$TLS/ca.crt"
}

# tls_issue FILE_STEM COMMON_NAME EXTENSIONS: a key and a certificate signed by the CA, unless current.
tls_issue() {
  local stem="$1" common_name="$2" extensions="$3"
  tls_current "$stem.crt" "$stem.key" && return 0
  (
    umask 077
    openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$stem.key.tmp" 2>/dev/null \
      && openssl req -new -key "$stem.key.tmp" -subj "/O=Pagora local/CN=$common_name" 2>/dev/null \
      | openssl x509 -req -CA "$TLS/ca.crt" -CAkey "$TLS/ca.key" -set_serial "0x$(openssl rand -hex 16)" \
        -days "$TLS_LEAF_DAYS" -extfile <(printf '%s\n' "$extensions") -out "$stem.crt.tmp" 2>/dev/null
  ) || die "openssl could not issue the certificate of $common_name"
  chmod 644 "$stem.crt.tmp"
  mv "$stem.key.tmp" "$stem.key"
  mv "$stem.crt.tmp" "$stem.crt"
  TLS_ISSUED+=("$common_name")
}

tls_issue_participant() {
  tls_issue "$PARTICIPANTS/$1" "$1" "basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=clientAuth"
}

# ensure_certs [ISPB...]: the CA, the server's, the operator's and the monitor's certificates, and one per bank given; only what
# is missing or stale is made.
ensure_certs() {
  local ispb
  TLS_ISSUED=()
  tls_ensure_ca
  mkdir -p "$PARTICIPANTS"
  tls_issue "$TLS/server" "localhost" "basicConstraints=critical,CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=serverAuth
subjectAltName=DNS:localhost,IP:127.0.0.1,DNS:payment-api,DNS:reporting-service,DNS:*.pagora.test"
  tls_issue_participant operator
  tls_issue_participant monitor
  for ispb in "$@"; do
    [[ "$ispb" =~ ^[0-9]{1,8}$ ]] || die "an ISPB is up to 8 digits, not '$ispb'"
    tls_issue_participant "$(bank_principal "$ispb")"
  done
  if [[ ${#TLS_ISSUED[@]} -gt 0 ]]; then say "certs: issued ${TLS_ISSUED[*]} (in $TLS)"; fi
}

# The `certs` command: the seeded banks' (BANKS) certificates, or those of --ispbs=a,b,c (k6's own banks).
certs() {
  local arg ispbs=()
  for arg in "$@"; do
    case "$arg" in
      --ispbs=*) IFS=, read -r -a ispbs <<<"${arg#--ispbs=}" ;;
      *) die "unknown certs option: $arg (only --ispbs=NNNNNNNN,...)" ;;
    esac
  done
  [[ ${#ispbs[@]} -gt 0 ]] || mapfile -t ispbs < <(seeded_ispbs)
  ensure_certs "${ispbs[@]}"
  say "certs: CA $TLS/ca.crt, server $TLS/server.crt, clients in $PARTICIPANTS: $(cd "$PARTICIPANTS" && printf '%s ' *.crt)"
}
