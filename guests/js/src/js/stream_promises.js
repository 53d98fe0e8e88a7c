// node:stream/promises: the same object as require('stream').promises.
'use strict';

module.exports = require('stream_pipeline').promises;
