# shellcheck shell=bash
# The fault catalogue, sourced by infra/local/pagora (its functions: up, down, seed, launch, stop_pid, start_*).
# This file only supervises: it starts the load, injects each fault, and hands the measuring and the verdict to
# local-runtime's ChaosCheck (recovery time, lost/duplicated payments, the four money invariant checks).
#
#   infra/local/pagora chaos <scenario>...|all [--ledger=tigerbeetle|postgresql|both]
#
# One fresh platform per ledger; the scenarios run one after the other on it, each under its own k6 load
# (SCENARIO=load at CHAOS_RATE/s): CHAOS_BEFORE_SECONDS of load, the fault, load until the scenario's fault budget
# and CHAOS_AFTER_SECONDS are over, while the check (started when the fault ends) measures. A scenario whose load was not
# accepted fails: offered is CHAOS_RATE × (CHAOS_BEFORE_SECONDS + CHAOS_AFTER_SECONDS), the load outside the fault, and
# at least half of it must be accepted (ChaosSummary.ACCEPTED_SHARE_MIN). Each scenario prints one line:
#   CHAOS <scenario> ledger=... offered=N accepted=N final=N lost=N duplicated=N recovery=Ts invariants=4/4 dead-lettered=N PASS|FAIL

CHAOS_SCENARIOS=(kill-clearing-twice kill-reporting kill-payment-api kafka-restart ledger-unavailable postgres-restart
  poison slow-bank kafka-outage)
CHAOS_RATE="${CHAOS_RATE:-200}"
CHAOS_BEFORE_SECONDS="${CHAOS_BEFORE_SECONDS:-15}"
CHAOS_AFTER_SECONDS="${CHAOS_AFTER_SECONDS:-15}"
# How long the ledger stays unavailable, and how long the slow receiving bank is slow.
CHAOS_LEDGER_DOWN_SECONDS="${CHAOS_LEDGER_DOWN_SECONDS:-30}"
CHAOS_SLOW_BANK_SECONDS="${CHAOS_SLOW_BANK_SECONDS:-20}"
# The slow bank answers each batch after CHAOS_SLOW_BANK_LATENCY, longer than the pending timeout the chaos
# platform runs with (CHAOS_PENDING_TIMEOUT): every answer it gives then arrives after the ledger released the chain.
CHAOS_PENDING_TIMEOUT="${CHAOS_PENDING_TIMEOUT:-2s}"
CHAOS_SLOW_BANK_LATENCY="${CHAOS_SLOW_BANK_LATENCY:-4s}"
CHAOS_FINAL_WAIT_SECONDS="${CHAOS_FINAL_WAIT_SECONDS:-180}"
# Before the first scenario, the load for this long on the freshly started platform (as the demo's warm-up): a cold
# JVM answers its first TLS handshakes and payments slowly, and a scenario must not be judged on that.
CHAOS_WARMUP_SECONDS="${CHAOS_WARMUP_SECONDS:-30}"
# kafka-outage: reporting's online reconciliation runs on the chaos platform with a final-within of
# CHAOS_FINAL_WITHIN_SECONDS (its default is 60 s), and the broker stays down CHAOS_KAFKA_OUTAGE_SECONDS, longer.
CHAOS_FINAL_WITHIN_SECONDS="${CHAOS_FINAL_WITHIN_SECONDS:-20}"
CHAOS_KAFKA_OUTAGE_SECONDS="${CHAOS_KAFKA_OUTAGE_SECONDS:-40}"
# Each bank's reserve on the chaos platform, in centavos (see chaos_platform).
CHAOS_RESERVE_FUNDING="${CHAOS_RESERVE_FUNDING:-5000000000}"

chaos() {
  local ledger="" scenarios=() arg rc=0 ledgers=()
  for arg in "$@"; do
    case "$arg" in
      --ledger=*) ledger="${arg#--ledger=}" ;;
      all) scenarios+=("${CHAOS_SCENARIOS[@]}") ;;
      -*) die "unknown chaos option: $arg (see: infra/local/pagora help)" ;;
      *) [[ " ${CHAOS_SCENARIOS[*]} " == *" $arg "* ]] || die "unknown chaos scenario '$arg' (${CHAOS_SCENARIOS[*]} or all)"
         scenarios+=("$arg") ;;
    esac
  done
  [[ ${#scenarios[@]} -gt 0 ]] || die "chaos needs a scenario: ${CHAOS_SCENARIOS[*]} or all"
  refuse_plain_http chaos
  [[ -z "$ledger" ]] && ledger="$(ledger_backend)"
  case "$ledger" in
    tigerbeetle|postgresql) ledgers=("$ledger") ;;
    both) ledgers=(tigerbeetle postgresql) ;;
    *) die "--ledger is tigerbeetle, postgresql or both, not '$ledger'" ;;
  esac
  if [[ " ${ledgers[*]} " == *" tigerbeetle "* && -z "${TIGERBEETLE_BIN:-}" ]]; then
    die "--ledger=$ledger needs TIGERBEETLE_BIN (a tigerbeetle $TB_SERVER_VERSION binary)"
  fi
  pick_java
  build
  trap 'rc=$?; stop_pid chaos-check 5; down; exit $rc' EXIT
  trap 'exit 130' INT TERM
  local summary="$VAR/chaos/summary.txt" status
  mkdir -p "$VAR/chaos"
  : >"$summary"
  for ledger in "${ledgers[@]}"; do
    set +e
    ( set -e; chaos_platform "$ledger" "$summary" "${scenarios[@]}" )
    status=$?
    set -e
    [[ $status == 0 ]] || rc=1
    down
  done
  trap - EXIT
  banner "chaos: one line per scenario (details in $VAR/chaos/<time>-<ledger>/)"
  cat "$summary"
  local expected=$(( ${#scenarios[@]} * ${#ledgers[@]} ))
  if [[ "$(grep -c '^CHAOS ' "$summary")" != "$expected" ]]; then
    warn "only $(grep -c '^CHAOS ' "$summary") of $expected scenarios produced a verdict"
    rc=1
  fi
  grep -q ' FAIL$' "$summary" && rc=1
  return "$rc"
}

# How long each fault is expected to last at most (a service restart takes ~25 s on a 2-core machine): k6 runs
# CHAOS_BEFORE_SECONDS + this + CHAOS_AFTER_SECONDS and ends by itself, so every answer it got is logged (an
# interrupted k6 drops the answers of its calls in flight, and a payment accepted without a logged answer would
# look unacknowledged). A fault that outlasts its budget only shortens the load after it, which is said.
declare -A CHAOS_FAULT_SECONDS=([kill-clearing-twice]=75 [kill-reporting]=40 [kill-payment-api]=40 [kafka-restart]=45
  [ledger-unavailable]=45 [postgres-restart]=30 [poison]=15 [slow-bank]=95
  [kafka-outage]=$(( CHAOS_KAFKA_OUTAGE_SECONDS + 20 )))

# One fresh platform on one ledger, seeded as for the demo, then the scenarios in turn.
chaos_platform() {
  local ledger="$1" summary="$2" dir scenario
  shift 2
  remove_data chaos
  if [[ "$ledger" == postgresql ]]; then unset TIGERBEETLE_BIN; fi
  # shellcheck disable=SC2034 # these globals are read by the launcher's functions that chaos calls (up, seed)
  PENDING_TIMEOUT="$CHAOS_PENDING_TIMEOUT"
  # shellcheck disable=SC2034 # read by up
  RECONCILIATION_FINAL_WITHIN="${CHAOS_FINAL_WITHIN_SECONDS}s"
  # The demo's simulated banks (most accept, some refuse, a few never answer), but funds for the whole run: on the
  # demo's poor seeding the catalogue's payments were nearly all refused for funds after its first scenario. All
  # customers together hold R$ 80 million, so k6's deliberate NSF payments (one centavo above everything funded) stay
  # below payment-api's maximum amount (R$ 100 million); each customer still holds thousands of k6's payments.
  # k6 pays from one bank's customers, three quarters of it to other banks: that bank's reserve sends ~R$ 5 million
  # over the catalogue, so every reserve gets R$ 50 million (CHAOS_RESERVE_FUNDING; with the demo's R$ 1 million the
  # payments of the later scenarios were refused INSUFFICIENT_RESERVE).
  # shellcheck disable=SC2034 # read by seed
  RESERVE_FUNDING="$CHAOS_RESERVE_FUNDING"
  fund_for_the_whole_run $(( 8000000000 / (BANKS * CUSTOMERS_PER_BANK) ))
  if [[ " $* " == *" kafka-outage "* ]]; then
    [[ "${RECONCILIATION:-true}" == true ]] || die "chaos kafka-outage judges the online reconciliation: RECONCILIATION=false refused"
    (( CHAOS_KAFKA_OUTAGE_SECONDS > CHAOS_FINAL_WITHIN_SECONDS )) \
      || die "CHAOS_KAFKA_OUTAGE_SECONDS=$CHAOS_KAFKA_OUTAGE_SECONDS must exceed CHAOS_FINAL_WITHIN_SECONDS=$CHAOS_FINAL_WITHIN_SECONDS"
  fi
  up
  seed
  dir="$VAR/chaos/$(date -u +%Y%m%dT%H%M%SZ)-$ledger"
  mkdir -p "$dir"
  # shellcheck disable=SC2034 # read by start_k6
  K6="$(find_k6)" || die "chaos needs k6 (K6_BIN, var/bin/k6 or k6 on the PATH)"
  if (( CHAOS_WARMUP_SECONDS > 0 )); then
    # Its answers sit with the scenarios' (*.answers.log): the money checks judge its payments like every other.
    say "warm-up: ${CHAOS_WARMUP_SECONDS}s at $CHAOS_RATE/s with k6 (not a scenario; its payments are checked with the first)"
    start_k6 "chaos-warmup-$(date +%s)" "$dir/warmup.answers.log" -e DURATION="${CHAOS_WARMUP_SECONDS}s" \
      -e RATE="$CHAOS_RATE" -e SETTLE_TIMEOUT=1s -e ACCEPT_P95_MS=600000 -e ACCEPT_P99_MS=600000 -e ERROR_RATE_MAX=1
    wait "$(cat "$RUN/k6.pid")" || true
    rm -f "$RUN/k6.pid"
  fi
  for scenario in "$@"; do
    chaos_scenario "$ledger" "$dir" "$scenario" | tee -a "$dir/chaos.txt" || warn "chaos $scenario stopped early"
    grep '^CHAOS ' "$dir/$scenario.check.txt" >>"$summary" || echo "CHAOS $scenario ledger=$ledger no verdict FAIL" >>"$summary"
  done
}

# One scenario: load, fault, load, check. The check starts the moment the fault ends. It runs where errexit does
# not apply (a pipeline followed by ||, so one scenario's failure does not stop the next): every step that can fail
# says so with die, which ends the scenario without a verdict line (counted as a failure).
chaos_scenario() {
  local ledger="$1" dir="$2" scenario="$3" k6_pid check_pid fault_end load_seconds
  local answers="$dir/$scenario.answers.log" done_file="$dir/$scenario.done"
  # What an earlier scenario that died left running: its load would mix with this one's.
  stop_pid k6 10
  stop_pid chaos-check 5
  load_seconds=$(( CHAOS_BEFORE_SECONDS + CHAOS_FAULT_SECONDS[$scenario] + CHAOS_AFTER_SECONDS ))
  banner "chaos $scenario on the $ledger ledger: ${load_seconds}s of load at $CHAOS_RATE/s, the fault after ${CHAOS_BEFORE_SECONDS}s"
  # SETTLE_TIMEOUT is short: ChaosCheck, not k6, waits for the outcomes and judges them; nor are k6's thresholds
  # the verdict (faults make requests fail on purpose). The same k6 invocation as the demo's (start_k6).
  start_k6 "chaos-$scenario-$(date +%s)" "$answers" -e DURATION="${load_seconds}s" -e RATE="$CHAOS_RATE" \
    -e SETTLE_TIMEOUT=1s -e ACCEPT_P95_MS=600000 -e ACCEPT_P99_MS=600000 -e ERROR_RATE_MAX=1
  k6_pid="$(cat "$RUN/k6.pid")"
  sleep "$CHAOS_BEFORE_SECONDS"
  chaos_fault "$ledger" "$scenario" "$dir"
  fault_end="$(date +%s%3N)"
  say "fault over: measuring recovery (local-runtime chaos-check)"
  local reconciliation=()
  if [[ "$scenario" == kafka-outage ]]; then
    reconciliation=(--planted-file="$dir/$scenario.planted" --reporting-url="$(service_url reporting-service "")"
      --tls-dir="$TLS")
  fi
  "$JAVA" -Xmx1g --enable-native-access=ALL-UNNAMED -jar "$(jar_of local-runtime)" chaos-check \
    --scenario="$scenario" --answers-dir="$dir" --accounts="$DEMO/accounts.tsv" --fault-end-epoch-ms="$fault_end" \
    --load-done-file="$done_file" --final-wait-seconds="$CHAOS_FINAL_WAIT_SECONDS" \
    --offered-payments=$(( CHAOS_RATE * (CHAOS_BEFORE_SECONDS + CHAOS_AFTER_SECONDS) )) \
    --bootstrap-servers="$HOST:$KAFKA_PORT" --jdbc-url="jdbc:postgresql://$HOST:$PG_PORT/$DB_NAME" \
    --db-user="$DB_USER" --db-password="$DB_PASSWORD" --ledger-backend="$ledger" \
    --tigerbeetle-addresses="$HOST:$TB_PORT" "${reconciliation[@]}" >"$dir/$scenario.check.txt" \
    2>>"$LOG/chaos-check.log" &
  check_pid=$!
  echo "$check_pid" >"$RUN/chaos-check.pid"
  kill -0 "$k6_pid" 2>/dev/null || warn "the fault outlasted its ${CHAOS_FAULT_SECONDS[$scenario]}s budget: no load after it"
  wait "$k6_pid" || true # its thresholds are not the verdict: faults make requests fail on purpose
  rm -f "$RUN/k6.pid"
  touch "$done_file"
  wait "$check_pid" || true
  rm -f "$RUN/chaos-check.pid"
  cat "$dir/$scenario.check.txt"
  return 0 # the verdict is the CHAOS line; a failing scenario must not stop the next ones
}

chaos_fault() {
  local ledger="$1" scenario="$2" dir="$3"
  case "$scenario" in
    kill-clearing-twice)
      chaos_kill_and_restart clearing-service
      sleep 5
      chaos_kill_and_restart clearing-service ;;
    kill-reporting) chaos_kill_and_restart reporting-service ;;
    kill-payment-api) chaos_kill_and_restart payment-api ;;
    kafka-restart)
      say "FAULT: restarting the Kafka broker"
      stop_pid kafka 60
      start_kafka ;;
    ledger-unavailable) chaos_ledger_unavailable "$ledger" ;;
    postgres-restart)
      say "FAULT: restarting PostgreSQL"
      stop_postgres
      start_postgres ;;
    poison)
      say "FAULT: malformed records into every consumed topic (local-runtime poison)"
      "$JAVA" -jar "$(jar_of local-runtime)" poison --bootstrap-servers="$HOST:$KAFKA_PORT" 2>>"$LOG/chaos-check.log" \
        || die "the poison producer failed (log: $LOG/chaos-check.log)" ;;
    slow-bank)
      say "FAULT: the receiving bank answers after $CHAOS_SLOW_BANK_LATENCY (pending timeout $CHAOS_PENDING_TIMEOUT) for ${CHAOS_SLOW_BANK_SECONDS}s"
      chaos_restart_clearing "$CHAOS_SLOW_BANK_LATENCY"
      sleep "$CHAOS_SLOW_BANK_SECONDS"
      chaos_restart_clearing "${BANK_ANSWER_LATENCY:-2ms}" ;;
    kafka-outage) chaos_kafka_outage "$dir" ;;
    *) die "no fault for scenario $scenario" ;;
  esac
}

# The broker down for longer than reporting's final-within while k6 keeps paying (payment-api answers what it can),
# and meanwhile a wrong row planted in the read model (local-runtime chaos-plant: a SETTLED payment the ledger never
# saw, accepted minutes ago). chaos-check then asks reporting's reconciliation, through its metrics, to have judged
# every payment of the outage once projected and to have reported the planted row (ReconciliationWatch).
chaos_kafka_outage() {
  local dir="$1" started
  say "FAULT: Kafka down for ${CHAOS_KAFKA_OUTAGE_SECONDS}s (reporting's final-within: ${CHAOS_FINAL_WITHIN_SECONDS}s), a wrong read-model row planted"
  started="$(date +%s)"
  stop_pid kafka 60
  "$JAVA" -jar "$(jar_of local-runtime)" chaos-plant --out="$dir/kafka-outage.planted" --accounts="$DEMO/accounts.tsv" \
    --reporting-url="$(service_url reporting-service "")" --tls-dir="$TLS" \
    --final-within-seconds="$CHAOS_FINAL_WITHIN_SECONDS" --jdbc-url="jdbc:postgresql://$HOST:$PG_PORT/$DB_NAME" \
    --db-user="$DB_USER" --db-password="$DB_PASSWORD" 2>>"$LOG/chaos-check.log" \
    || { start_kafka; die "chaos-plant failed (log: $LOG/chaos-check.log)"; }
  sleep "$(( CHAOS_KAFKA_OUTAGE_SECONDS - ($(date +%s) - started) > 0 ? CHAOS_KAFKA_OUTAGE_SECONDS - ($(date +%s) - started) : 0 ))"
  start_kafka
}

# kill -9 (no shutdown hook, no offset commit, mid-batch under load), then the same service started again.
chaos_kill_and_restart() {
  local service="$1"
  pid_alive "$service" || die "$service is not running"
  say "FAULT: kill -9 $service (pid $(cat "$RUN/$service.pid"))"
  kill -KILL "$(cat "$RUN/$service.pid")" || die "could not kill $service"
  while pid_alive "$service"; do sleep 0.2; done
  start_services "$(cat "$RUN/ledger-backend")"
}

# A graceful stop of clearing, then a start whose simulated bank answers after the given latency.
chaos_restart_clearing() {
  stop_pid clearing-service 60
  BANK_ANSWER_LATENCY="$1" start_services "$(cat "$RUN/ledger-backend")"
}

# TigerBeetle: the server process frozen (SIGSTOP) and thawed (SIGCONT). The PostgreSQL ledger: its tables locked
# (ACCESS EXCLUSIVE) in one transaction, so every ledger statement waits while the rest of PostgreSQL (read model,
# idempotency keys) keeps working.
chaos_ledger_unavailable() {
  local ledger="$1"
  if [[ "$ledger" == tigerbeetle ]]; then
    say "FAULT: TigerBeetle frozen (SIGSTOP) for ${CHAOS_LEDGER_DOWN_SECONDS}s"
    kill -STOP "$(cat "$RUN/tigerbeetle.pid")" || die "could not freeze TigerBeetle"
    sleep "$CHAOS_LEDGER_DOWN_SECONDS"
    kill -CONT "$(cat "$RUN/tigerbeetle.pid")" || die "could not thaw TigerBeetle"
    return
  fi
  [[ "$(cut -d' ' -f1 "$RUN/postgres.mode")" == debian ]] \
    || die "ledger-unavailable on the PostgreSQL ledger needs Debian's PostgreSQL (psql); the embedded one has none"
  local bin sockets
  bin="$(cut -d' ' -f2- "$RUN/postgres.mode")"
  sockets="$(pg_home)/pgsocket"
  [[ "$(pg_home)" == "$VAR" ]] && sockets="$RUN/pgsocket"
  say "FAULT: the PostgreSQL ledger's tables locked for ${CHAOS_LEDGER_DOWN_SECONDS}s"
  # The tables are locked one after another, and a ledger transaction may hold one of them while it waits for
  # another: PostgreSQL then aborts one of the two (deadlock detected). When it aborts the lock, nothing was held
  # for long and the fault has not begun: take the locks again, a bounded number of times.
  local attempt errors="$RUN/chaos-ledger-lock.err"
  for attempt in 1 2 3 4 5; do
    # One line: as_pg_user quotes it for su's /bin/sh, which does not read bash's $'...\n...' quoting.
    if as_pg_user "$bin/psql" -h "$sockets" -p "$PG_PORT" -U postgres -d "$DB_NAME" -v ON_ERROR_STOP=1 -qtA -c \
      "BEGIN; LOCK TABLE ledger.accounts, ledger.transfers, ledger.failed_transfer_ids IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep($CHAOS_LEDGER_DOWN_SECONDS); COMMIT;" \
      >/dev/null 2>"$errors"; then
      return
    fi
    grep -q "deadlock detected" "$errors" || { cat "$errors" >&2; die "could not lock the ledger's tables"; }
    warn "locking the ledger's tables met a ledger transaction in a deadlock, and PostgreSQL aborted the lock (attempt $attempt of 5)"
  done
  cat "$errors" >&2
  die "could not lock the ledger's tables: a deadlock each of 5 times"
}
