# declare -g inside functions.
setup() { declare -g CONFIG=ready; local tmp=hidden; }
setup
echo "CONFIG=$CONFIG tmp=[${tmp:-}]"
