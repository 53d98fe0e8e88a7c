// ajv: compile a schema, validate good and bad data, read the errors.
const Ajv = require('ajv');
const ajv = new Ajv({ allErrors: true });
const schema = {
  type: 'object',
  properties: {
    id: { type: 'integer', minimum: 1 },
    name: { type: 'string', minLength: 2 },
    tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
    kind: { enum: ['a', 'b'] },
  },
  required: ['id', 'name'],
  additionalProperties: false,
};
const validate = ajv.compile(schema);
console.log(validate({ id: 1, name: 'ok', tags: ['x'], kind: 'a' }), validate.errors);
console.log(validate({ id: 0, name: 'x', tags: ['y', 'y'], extra: 1, kind: 'c' }));
for (const e of validate.errors) console.log(e.instancePath || '/', e.keyword, e.message);
console.log(ajv.validate({ type: 'number', multipleOf: 0.5 }, 2.5), ajv.errorsText([{ instancePath: '/a', message: 'is bad' }]));
