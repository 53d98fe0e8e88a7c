// mustache: variables, escaping, sections, inverted sections, partials.
const Mustache = require('mustache');
const view = { name: 'Ada', html: '<b>&</b>', items: [{ n: 1 }, { n: 2 }], empty: [], flag: false, fn: () => (t, r) => '[' + r(t) + ']' };
console.log(Mustache.render('Hi {{name}}: {{html}} / {{{html}}} / {{&html}}', view));
console.log(Mustache.render('{{#items}}<{{n}}>{{/items}}{{^empty}}none{{/empty}}{{#flag}}never{{/flag}}', view));
console.log(Mustache.render('{{#fn}}wrapped {{name}}{{/fn}}', view));
console.log(Mustache.render('{{> head}} body', view, { head: 'Header for {{name}}' }));
console.log(JSON.stringify(Mustache.parse('a {{b}} c').map((t) => t[0])));
