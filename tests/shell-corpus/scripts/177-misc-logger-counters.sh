# A logger with levels and counters.
declare -A counts
log() { counts[$1]=$(( ${counts[$1]:-0} + 1 )); printf '%-5s %s\n' "$1" "$2"; }
log INFO "starting"
log WARN "disk almost full"
log INFO "working"
log ERROR "failed"
for l in ERROR INFO WARN; do echo "$l=${counts[$l]:-0}"; done
