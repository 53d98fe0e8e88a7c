# node --test over both directories: passing and failing files together.
node --test fixtures/tests/passing/math.test.js fixtures/tests/mixed/
echo "corpus: exit code was $?"
