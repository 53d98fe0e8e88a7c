# node --test over a directory of passing files (summary lines and exit code).
node --test fixtures/tests/passing/
