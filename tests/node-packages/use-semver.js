// semver: parse, compare, ranges, increments.
const semver = require('semver');
console.log(semver.valid('1.2.3'), semver.valid('a.b.c'), semver.clean('  =v1.2.3  '));
console.log(semver.gt('1.2.3', '1.2.0'), semver.lt('1.0.0-alpha', '1.0.0'), semver.compare('2.0.0', '10.0.0'));
console.log(semver.satisfies('1.5.0', '^1.2.0'), semver.satisfies('2.0.0', '^1.2.0'), semver.satisfies('1.2.3-beta', '>=1.0.0'));
console.log(semver.maxSatisfying(['1.0.0', '1.4.2', '2.0.0'], '~1.4.0'), semver.minVersion('>=1.2.x').version);
console.log(semver.inc('1.2.3', 'minor'), semver.inc('1.2.3', 'prerelease', 'rc'), semver.inc('1.2.3-rc.0', 'prerelease'));
console.log(semver.sort(['1.10.0', '1.2.0', '1.2.0-rc.1']).join(' '), semver.diff('1.2.3', '2.0.0'), semver.coerce('v3.4 stable').version);
console.log(new semver.Range('1.x || >=2.5.0').range, semver.major('4.5.6'), semver.prerelease('1.0.0-beta.2'));
