# Literal initialisation, unset and keys with spaces.
declare -A cfg=([host]=localhost [port]=8080 ["log level"]=info)
unset 'cfg[port]'
cfg[mode]=dev
for k in "${!cfg[@]}"; do printf '%s=%s\n' "$k" "${cfg[$k]}"; done | sort
echo "${#cfg[@]}"
