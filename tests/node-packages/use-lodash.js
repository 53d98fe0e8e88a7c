// lodash: collections, objects, strings, and a chain, on fixed data.
const _ = require('lodash');
const users = [
  { name: 'ada', age: 36, team: 'core' },
  { name: 'bob', age: 24, team: 'web' },
  { name: 'cy', age: 41, team: 'core' },
];
console.log(JSON.stringify(_.groupBy(users, 'team')));
console.log(_.sortBy(users, ['age']).map((u) => u.name).join(','), _.sumBy(users, 'age'), _.maxBy(users, 'age').name);
console.log(JSON.stringify(_.chunk([1, 2, 3, 4, 5], 2)), JSON.stringify(_.uniq([1, 2, 1, 3])), JSON.stringify(_.difference([1, 2, 3], [2])));
console.log(JSON.stringify(_.merge({ a: { b: 1 } }, { a: { c: 2 } })), _.get({ a: [{ b: 'deep' }] }, 'a[0].b'), JSON.stringify(_.set({}, 'x.y[1]', 5)));
console.log(_.camelCase('Foo Bar-baz'), _.kebabCase('fooBarBaz'), _.startCase('hello_world'), _.padStart('7', 3, '0'), _.truncate('a long sentence here', { length: 10 }));
console.log(_.chain(users).filter((u) => u.age > 30).map('name').map(_.upperFirst).value().join(' & '));
console.log(_.isEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), JSON.stringify(_.cloneDeep({ d: [1, [2]] })), _.template('hi <%= who %>!')({ who: 'you' }));
console.log(JSON.stringify(_.zipObject(['a', 'b'], [1, 2])), JSON.stringify(_.pick({ a: 1, b: 2, c: 3 }, ['a', 'c'])), _.range(0, 10, 3).join(' '), _.VERSION);
