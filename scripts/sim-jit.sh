# shellcheck shell=bash
# Sourced by ./pacelab: the JIT of a 'pacelab sim' JVM. A short transfer runs on C1 alone (-XX:TieredStopAtLevel=1):
# on a 2-core machine C2 spends as much CPU compiling as a 100 MiB simulation spends running, and a short run ends
# before C2's code pays that back; a long one (400 MiB and more) is faster with C2 (docs/benchmarks.md, "Simulator",
# 2026-12-03). Short = the whole transfer, --size (default 100 MiB) times the --flows pairs times the --streams
# downloads of each, is at most 256 MiB, and no --duration. 'sim calibrate' keeps both compilers (it times the stack
# as a server runs it). PACELAB_SIM_JIT=c1 or tiered chooses regardless of the transfer (auto, the default, chooses).
# A value the simulator will refuse (a bad --size, --flows or --streams) gives tiered: the JVM only reports the error.

# pacelab_sim_jit ARGS...: prints c1 or tiered for 'pacelab ARGS...' ('sim' without 'calibrate'); for another
# PACELAB_SIM_JIT than auto, c1 or tiered it says so in one sentence and returns 2.
pacelab_sim_jit() {
  local jit="${PACELAB_SIM_JIT:-auto}"
  case "$jit" in
    c1|tiered) echo "$jit"; return 0 ;;
    auto) ;;
    *) echo "pacelab: PACELAB_SIM_JIT='$jit' is not a JIT choice; valid: auto (the default: C1 for short simulations), c1, tiered." >&2
       return 2 ;;
  esac
  local mib=100 flows=1 streams=1 prev= a v
  jit=c1
  for a in "${@:2}"; do
    v=
    case "$a" in
      --duration|--duration=*) jit=tiered ;;
      --size=*|--flows=*|--streams=*) v="${a#*=}"; a="${a%%=*}" ;;
    esac
    if [[ -z "$v" && ( "$prev" == --size || "$prev" == --flows || "$prev" == --streams ) ]]; then
      v="$a"; a="$prev"
    fi
    prev="$a"
    [[ -z "$v" ]] && continue
    prev=
    case "$a" in
      --size)
        # as SimOptions reads it (Units.parseSize): a number and b, k/kb/kib, m/mb/mib or g/gb/gib
        if [[ "${v,,}" =~ ^([0-9]+(\.[0-9]+)?)\ *(b|k|kb|kib|m|mb|mib|g|gb|gib)?$ ]]; then
          case "${BASH_REMATCH[3]}" in
            ""|b) mib="$(awk -v n="${BASH_REMATCH[1]}" 'BEGIN { print n / 1048576 }')" ;;
            k|kb|kib) mib="$(awk -v n="${BASH_REMATCH[1]}" 'BEGIN { print n / 1024 }')" ;;
            m|mb|mib) mib="${BASH_REMATCH[1]}" ;;
            *) mib="$(awk -v n="${BASH_REMATCH[1]}" 'BEGIN { print n * 1024 }')" ;;
          esac
        else
          jit=tiered
        fi ;;
      --flows)
        # a count, or a list of path modes (dc,a,b): one client/server pair per entry, each downloading --size
        if [[ "$v" =~ ^\ *([0-9]+)\ *$ ]]; then
          flows="${BASH_REMATCH[1]}"
        elif [[ "${v,,}" =~ ^\ *[a-z]+\ *(,\ *[a-z]+\ *)*$ ]]; then
          flows="$(tr -cd , <<<"$v" | wc -c)"; flows=$((flows + 1))
        else
          jit=tiered
        fi ;;
      --streams)
        if [[ "$v" =~ ^\ *([0-9]+)\ *$ ]]; then streams="${BASH_REMATCH[1]}"; else jit=tiered; fi ;;
    esac
  done
  if [[ "$jit" == c1 ]] && ! awk -v m="$mib" -v f="$flows" -v s="$streams" 'BEGIN { exit !(m * f * s <= 256) }'; then
    jit=tiered
  fi
  echo "$jit"
}
