// util.parseArgs as in node 20: args become tokens (options, positionals, the `--`
// terminator), then strict mode checks each option against its config; values,
// positionals and (optionally) the tokens come back. Errors carry node's codes.
'use strict';

const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const own = (o, k) => (hasOwn(o, k) ? o[k] : undefined);
const optionGet = (options, name, prop) => (hasOwn(options, name) ? own(options[name], prop) : undefined);

function typeError(code, message) {
  const err = new TypeError(message);
  err.code = code;
  return err;
}

function describe(value) {
  const { receivedText } = require('assert_error');
  return receivedText(value);
}

function validate(ok, name, type, value) {
  const kind = name.includes('.') ? 'property' : 'argument';
  if (!ok) throw typeError('ERR_INVALID_ARG_TYPE', `The "${name}" ${kind} must be ${type}.${describe(value)}`);
}

function unknownOption(option, allowPositionals) {
  const hint = allowPositionals
    ? `. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- ${JSON.stringify(option)}`
    : '';
  return typeError('ERR_PARSE_ARGS_UNKNOWN_OPTION', `Unknown option '${option}'${hint}`);
}

const invalidValue = (message) => typeError('ERR_PARSE_ARGS_INVALID_OPTION_VALUE', message);

function longFor(short, options) {
  const entry = Object.entries(options).find(([, cfg]) => own(cfg, 'short') === short);
  return entry ? entry[0] : short;
}

const isLoneShort = (a) => a.length === 2 && a[0] === '-' && a[1] !== '-';
const isLoneLong = (a) => a.length > 2 && a.startsWith('--') && !a.includes('=', 3);
const isLongWithValue = (a) => a.length > 2 && a.startsWith('--') && a.includes('=', 3);
const isShortStart = (a) => a.length > 2 && a[0] === '-' && a[1] !== '-';
const takesValue = (options, a) => optionGet(options, longFor(a[1], options), 'type') === 'string';

function expandGroup(arg, options) {
  const expanded = [];
  for (let i = 1; i < arg.length; i++) {
    const short = arg[i];
    if (optionGet(options, longFor(short, options), 'type') !== 'string' || i === arg.length - 1) {
      expanded.push(`-${short}`);
    } else {
      expanded.push(`-${arg.slice(i)}`);
      break;
    }
  }
  return expanded;
}

function optionWithNext(tokens, rest, options, name, rawName, index) {
  let value;
  let inlineValue;
  if (optionGet(options, name, 'type') === 'string' && rest[0] != null) {
    value = rest.shift();
    inlineValue = false;
  }
  tokens.push({ kind: 'option', name, rawName, index, value, inlineValue });
  return value != null ? 1 : 0;
}

function toTokens(args, options) {
  const tokens = [];
  const rest = args.slice();
  let index = -1;
  let groupCount = 0;
  while (rest.length > 0) {
    const arg = rest.shift();
    if (groupCount > 0) groupCount--;
    else index++;
    if (arg === '--') {
      tokens.push({ kind: 'option-terminator', index });
      for (const value of rest) tokens.push({ kind: 'positional', index: ++index, value });
      break;
    }
    if (isLoneShort(arg)) {
      index += optionWithNext(tokens, rest, options, longFor(arg[1], options), arg, index);
    } else if (isShortStart(arg) && !takesValue(options, arg)) {
      const expanded = expandGroup(arg, options);
      rest.unshift(...expanded);
      groupCount = expanded.length;
    } else if (isShortStart(arg)) {
      tokens.push({ kind: 'option', name: longFor(arg[1], options), rawName: `-${arg[1]}`, index, value: arg.slice(2), inlineValue: true });
    } else if (isLoneLong(arg)) {
      index += optionWithNext(tokens, rest, options, arg.slice(2), arg, index);
    } else if (isLongWithValue(arg)) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq);
      tokens.push({ kind: 'option', name, rawName: `--${name}`, index, value: arg.slice(eq + 1), inlineValue: true });
    } else {
      tokens.push({ kind: 'positional', index, value: arg });
    }
  }
  return tokens;
}

function checkUsage(config, token) {
  let name = token.name;
  if (!hasOwn(config.options, name)) {
    const negated = config.allowNegative && name.startsWith('no-') ? name.slice(3) : null;
    if (negated === null || !hasOwn(config.options, negated) || optionGet(config.options, negated, 'type') !== 'boolean') {
      throw unknownOption(token.rawName, config.allowPositionals);
    }
    name = negated;
  }
  const short = optionGet(config.options, name, 'short');
  const both = `${short ? `-${short}, ` : ''}--${name}`;
  const type = optionGet(config.options, name, 'type');
  if (type === 'string' && typeof token.value !== 'string') throw invalidValue(`Option '${both} <value>' argument missing`);
  if (type === 'boolean' && token.value != null) throw invalidValue(`Option '${both}' does not take an argument`);
  if (!token.inlineValue && token.value != null && token.value.length > 1 && token.value[0] === '-') {
    const example = token.rawName.startsWith('--') ? `'${token.rawName}=-XYZ'` : `'--${token.name}=-XYZ' or '${token.rawName}-XYZ'`;
    throw invalidValue(`Option '${token.rawName}' argument is ambiguous.\nDid you forget to specify the option argument for '${token.rawName}'?\nTo specify an option argument starting with a dash use ${example}.`);
  }
}

function store(token, options, values, allowNegative) {
  let name = token.name;
  let value = token.value;
  if (name === '__proto__') return;
  if (allowNegative && name.startsWith('no-') && value === undefined) {
    name = name.slice(3);
    token.name = name;
    value = false;
  }
  const v = value ?? true;
  if (optionGet(options, name, 'multiple')) {
    if (values[name]) values[name].push(v);
    else values[name] = [v];
  } else {
    values[name] = v;
  }
}

function validateOptions(options) {
  for (const [name, cfg] of Object.entries(options)) {
    validate(cfg !== null && typeof cfg === 'object', `options.${name}`, 'of type object', cfg);
    const type = own(cfg, 'type');
    if (type !== 'string' && type !== 'boolean') {
      throw typeError('ERR_INVALID_ARG_TYPE', `The "options.${name}.type" property must be ('string|boolean').${describe(type)}`);
    }
    if (hasOwn(cfg, 'short')) {
      validate(typeof cfg.short === 'string', `options.${name}.short`, 'of type string', cfg.short);
      if (cfg.short.length !== 1) {
        throw typeError('ERR_INVALID_ARG_VALUE', `The property 'options.${name}.short' must be a single character. Received ${require('inspect').inspect(cfg.short)}`);
      }
    }
    const multiple = own(cfg, 'multiple');
    if (hasOwn(cfg, 'multiple')) validate(typeof multiple === 'boolean', `options.${name}.multiple`, 'of type boolean', multiple);
    const dflt = own(cfg, 'default');
    if (dflt === undefined) continue;
    const ok = multiple ? Array.isArray(dflt) && dflt.every((x) => typeof x === type) : typeof dflt === type;
    validate(ok, `options.${name}.default`, multiple ? `an instance of Array` : `of type ${type}`, dflt);
  }
}

function parseArgs(config = {}) {
  const args = own(config, 'args') ?? process.argv.slice(2);
  const strict = own(config, 'strict') ?? true;
  const allowPositionals = own(config, 'allowPositionals') ?? !strict;
  const returnTokens = own(config, 'tokens') ?? false;
  const allowNegative = own(config, 'allowNegative') ?? false;
  const options = own(config, 'options') ?? { __proto__: null };
  validate(Array.isArray(args), 'args', 'an instance of Array', args);
  for (const [name, v] of [['strict', strict], ['allowPositionals', allowPositionals], ['tokens', returnTokens], ['allowNegative', allowNegative]]) {
    validate(typeof v === 'boolean', name, 'of type boolean', v);
  }
  validate(options !== null && typeof options === 'object', 'options', 'of type object', options);
  validateOptions(options);
  const parseConfig = { options, allowPositionals, allowNegative };
  const tokens = toTokens(args, options);
  const result = { values: { __proto__: null }, positionals: [] };
  if (returnTokens) result.tokens = tokens;
  for (const token of tokens) {
    if (token.kind === 'option') {
      if (strict) checkUsage(parseConfig, token);
      store(token, options, result.values, allowNegative);
    } else if (token.kind === 'positional') {
      if (!allowPositionals) {
        throw typeError('ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL', `Unexpected argument '${token.value}'. This command does not take positional arguments`);
      }
      result.positionals.push(token.value);
    }
  }
  for (const [name, cfg] of Object.entries(options)) {
    if (own(cfg, 'default') !== undefined && result.values[name] === undefined && name !== '__proto__') {
      result.values[name] = own(cfg, 'default');
    }
  }
  return result;
}

module.exports = { parseArgs };
