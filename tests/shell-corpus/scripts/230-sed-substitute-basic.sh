# s/// replaces the first or every match.
sed 's/Widget/Doohickey/' crate/tests/integration.rs | grep -n Doohickey
echo "aaa bbb aaa" | sed 's/aaa/X/'
echo "aaa bbb aaa" | sed 's/aaa/X/g'
echo "aaa bbb aaa" | sed 's/aaa/X/2'
