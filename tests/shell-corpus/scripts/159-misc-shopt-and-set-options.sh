# Turning options on and off.
shopt -q nullglob && echo "on" || echo "nullglob off"
shopt -s nullglob
shopt -q nullglob && echo "nullglob on"
[[ -o errexit ]] && echo "errexit on" || echo "errexit off"
set -eu
[[ -o errexit ]] && echo "errexit on"
[[ -o nounset ]] && echo "nounset on"
[[ -o pipefail ]] || echo "pipefail off"
