console.log('no tests in here');
