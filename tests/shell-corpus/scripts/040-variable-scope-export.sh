# Exported variables reach child shells; plain ones do not.
plain=1
export EXPORTED=2
bash -c 'echo "plain=[${plain:-}] exported=[${EXPORTED:-}]"'
FOO=inline bash -c 'echo "inline=$FOO"'
echo "after: [${FOO:-}]"
