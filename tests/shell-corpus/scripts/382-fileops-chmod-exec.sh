# chmod and -x tests.
echo 'echo hi' > run.sh
[[ -x run.sh ]] || echo "not executable yet"
chmod +x run.sh
[[ -x run.sh ]] && echo "executable now"
chmod -x scripts/deploy.sh
[[ -x scripts/deploy.sh ]] || echo "deploy.sh no longer executable"
