// node:readline/promises: the same object as require('readline').promises.
'use strict';

module.exports = require('readline').promises;
