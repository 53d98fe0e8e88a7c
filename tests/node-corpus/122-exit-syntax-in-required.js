// A syntax error in a required file is a catchable SyntaxError.
try {
  require('./fixtures/errors/syntax-in-required');
} catch (e) {
  console.log(e.name, e instanceof SyntaxError);
}
