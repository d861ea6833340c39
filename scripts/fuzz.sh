#!/usr/bin/env bash
# Coverage-guided fuzzing of pacelab's parsers with Jazzer (the @FuzzTest targets; `./mvnw verify` only replays
# their committed inputs). Each target runs in its own JVM for SECONDS with libFuzzer through Jazzer's command line
# (com.code_intelligence.jazzer.Jazzer --target_class --target_method).
#
#   scripts/fuzz.sh SECONDS [Class#method ...]      (default: every target below; CI runs 10 s each)
#
# Inputs: MODULE/src/test/resources/<package>/<Class>Inputs/<method>/ (seeds and regression inputs, committed);
# the corpus a run grows: MODULE/target/fuzz/<Class>.<method>/corpus; a crash: MODULE/target/fuzz/<Class>.<method>/
# crash-* (turn it into a regression input by copying it into the Inputs directory, then fix the code).
# Prints per target the executions, coverage (libFuzzer's cov: and ft:), corpus size and findings, and ends with
# "fuzz: N passed, M failed"; exit status 1 when a target found a crash.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cd "$root"
source "$here/find-jdk.sh"
pacelab_find_jdk || exit 2
export JAVA_HOME

[[ $# -ge 1 && "$1" =~ ^[0-9]+$ ]] || { echo "usage: scripts/fuzz.sh SECONDS [Class#method ...]" >&2; exit 2; }
seconds="$1"; shift
declare -A module=(
  [org.pacelab.quic.packet.PacketFuzzTest]=quic [org.pacelab.quic.frame.FrameFuzzTest]=quic
  [org.pacelab.quic.TransportParametersFuzzTest]=quic [org.pacelab.quic.conn.ConnectionFuzzTest]=quic
  [org.pacelab.quic.h3.H3WireFuzzTest]=quic [org.pacelab.analysis.CaptureFuzzTest]=analysis
  [org.pacelab.net.spec.LinkSpecFuzzTest]=net [org.pacelab.lab.scenario.ScenarioFuzzTest]=lab)
all=(org.pacelab.quic.packet.PacketFuzzTest#datagram org.pacelab.quic.frame.FrameFuzzTest#payload
     org.pacelab.quic.TransportParametersFuzzTest#decode org.pacelab.quic.conn.ConnectionFuzzTest#clientInitialCrypto
     org.pacelab.quic.conn.ConnectionFuzzTest#oneRttFrames org.pacelab.quic.h3.H3WireFuzzTest#streamFrames
     org.pacelab.quic.h3.H3WireFuzzTest#qpack org.pacelab.analysis.CaptureFuzzTest#capture
     org.pacelab.analysis.CaptureFuzzTest#qlog org.pacelab.net.spec.LinkSpecFuzzTest#linkSpec
     org.pacelab.net.spec.LinkSpecFuzzTest#dcSpec org.pacelab.lab.scenario.ScenarioFuzzTest#scenario)
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=("${all[@]}")

# compile the modules' tests and write each one's test class path (reactor modules resolve to target/classes)
declare -A cp=()
for t in "${targets[@]}"; do
  m="${module[${t%%#*}]:-}"
  [[ -n "$m" ]] || { echo "fuzz: unknown target $t" >&2; exit 2; }
  [[ -n "${cp[$m]:-}" ]] && continue
  mkdir -p "$root/$m/target"
  ./mvnw -B -ntp -q -pl "$m" -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
      -Dmdep.outputFile="$root/$m/target/fuzz-classpath.txt" > "$root/$m/target/fuzz-build.log" 2>&1 \
    || { cat "$root/$m/target/fuzz-build.log" >&2; exit 2; }
  cp[$m]="$root/$m/target/test-classes:$root/$m/target/classes:$(cat "$root/$m/target/fuzz-classpath.txt")"
done

# -timeout: libFuzzer's limit per input. The first input of a target also loads and instruments its classes: for the
# connection targets that took more than 20 s at load average 54 on the shared VM (a "timeout" on the empty input, not
# a hang in pacelab), hence 120 s.
passed=0; failed=0
for t in "${targets[@]}"; do
  class="${t%%#*}"; method="${t##*#}"; m="${module[$class]}"
  work="$root/$m/target/fuzz/${class##*.}.$method"
  mkdir -p "$work/corpus"
  log="$work/fuzz.log"
  touch "$work/.started"
  start=$(date +%s)
  set +e
  (cd "$root/$m" && "$JAVA_HOME/bin/java" --enable-native-access=ALL-UNNAMED -XX:+EnableDynamicAgentLoading -Xmx2g \
      -cp "${cp[$m]}" com.code_intelligence.jazzer.Jazzer --target_class="$class" --target_method="$method" \
      -max_total_time="$seconds" -timeout=120 -rss_limit_mb=4096 -print_final_stats=1 \
      -artifact_prefix="$work/" "$work/corpus" > "$log" 2>&1)
  status=$?
  set -e
  wall=$(( $(date +%s) - start ))
  runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$' || echo 0)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1 || true)
  crashes=$(find "$work" -maxdepth 1 \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) -newer "$work/.started" | wc -l)
  if [[ $status -eq 0 ]]; then
    passed=$((passed + 1)); verdict=ok
  else
    failed=$((failed + 1)); verdict="FOUND (exit $status; $log)"
    grep -m1 -E '== Java Exception|FuzzerSecurityIssue|Exception' "$log" >&2 || true
  fi
  printf 'fuzz %-62s %5ss %10s execs  %-34s findings %s  %s\n' "$t" "$wall" "${runs:-0}" "${cov:-cov: ?}" "$crashes" "$verdict"
done
echo "fuzz: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
