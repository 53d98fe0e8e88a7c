# cd, cd -, pushd/popd, printing only relative names.
cd docs/design
echo "${PWD##*/}"
cd - > /dev/null
echo "${PWD##*/}"
pushd crate/src > /dev/null
echo "in ${PWD#"${PWD%/*/*}/"}"
popd > /dev/null
echo "back to ${PWD##*/}"
cd nonexistent 2>/dev/null || echo "cd failed"
