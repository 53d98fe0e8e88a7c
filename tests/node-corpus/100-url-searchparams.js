// URLSearchParams: parse, get/getAll, append/set/delete, sort, encoding.
const p = new URLSearchParams('a=1&b=2&a=3&space=x+y&enc=%26%3D');
console.log(p.get('a'), JSON.stringify(p.getAll('a')), p.get('space'), p.get('enc'), p.get('none'));
p.append('c', 'new value');
p.set('a', 'only');
p.delete('b');
console.log(p.toString(), p.has('b'), p.size);
p.sort();
console.log([...p.keys()].join(','), [...p].length);
console.log(new URLSearchParams({ q: 'a b&c', n: 1 }).toString());
const u = new URL('http://h/p?z=1');
u.searchParams.append('y', '2');
console.log(u.href);
