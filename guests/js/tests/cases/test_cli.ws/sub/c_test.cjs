require('node:test')('c1', (t) => { t.diagnostic('diag c'); });
