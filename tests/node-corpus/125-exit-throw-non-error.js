// Throwing a non-Error value still exits 1.
console.log('throwing a string');
throw 'just a string';
