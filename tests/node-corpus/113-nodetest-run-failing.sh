# node --test with failing tests exits 1; the summary counts them.
node --test fixtures/tests/mixed/fails.test.js
