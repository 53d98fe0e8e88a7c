console.log('not a test');
