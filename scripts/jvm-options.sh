# shellcheck shell=bash
# Sourced by ./pacelab and scripts/bench-slurm.sh: reads a jvm-options file (the JVM options of every pacelab JVM,
# cli/src/main/resources/org/pacelab/cli/jvm-options) by the rule of cli's Launchers.parseOptions, which LaunchersTest
# checks against this function: a UTF-8 byte order mark at the start is ignored; lines end at LF, CRLF or a lone CR;
# each line is trimmed of spaces, tabs, vertical tabs, form feeds and CRs at both ends; then empty lines and lines
# starting with '#' are skipped; every other line is one option, inner spaces included.

# pacelab_jvm_options FILE: sets the array PACELAB_JVM_OPTIONS to the options of FILE; for a missing or unreadable
# FILE it says so in one sentence and returns 2.
pacelab_jvm_options() {
  local file="$1" text= line cause= ws=$' \t\v\f\r'
  PACELAB_JVM_OPTIONS=()
  if [[ ! -e "$file" ]]; then
    cause="it does not exist"
  elif [[ ! -f "$file" ]]; then
    cause="it is not a regular file"
  elif [[ ! -r "$file" ]]; then
    cause="it is not readable by this user"
  elif ! text="$(cat -- "$file" 2>/dev/null)"; then
    cause="reading it failed"
  fi
  if [[ -n "$cause" ]]; then
    echo "${0##*/}: cannot read the JVM options from $file: $cause; expected a readable file of JVM options, one per line ('#' comments), as committed in the repository." >&2
    return 2
  fi
  text="${text#$'\xef\xbb\xbf'}"
  text="${text//$'\r'/$'\n'}"
  while IFS= read -r line; do
    line="${line#"${line%%[!$ws]*}"}"
    line="${line%"${line##*[!$ws]}"}"
    [[ -z "$line" || "$line" == \#* ]] && continue
    PACELAB_JVM_OPTIONS+=("$line")
  done <<<"$text"
  return 0
}
