// uuid: name-based v3/v5 are deterministic; v4 and v7 only by shape.
import { v3, v4, v5, v7, validate, version, parse, stringify, NIL } from 'uuid';
console.log(v5('hello', v5.DNS), v5('https://example.com', v5.URL), v3('hello', v3.DNS));
console.log(validate(v4()), version(v4()), validate('not-a-uuid'), NIL);
console.log(version(v7()), /^[0-9a-f-]{36}$/.test(v7()));
const bytes = parse('6ba7b810-9dad-11d1-80b4-00c04fd430c8');
console.log(bytes.length, stringify(bytes));
