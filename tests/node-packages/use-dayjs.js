// dayjs: parse, format, arithmetic, diff, with the utc plugin (TZ=UTC in both runs).
const dayjs = require('dayjs');
const utc = require('dayjs/plugin/utc');
dayjs.extend(utc);
const d = dayjs.utc('2024-02-28T10:30:00Z');
console.log(d.format(), d.format('YYYY-MM-DD HH:mm:ss dddd MMM'), d.toISOString());
console.log(d.add(1, 'day').format('YYYY-MM-DD'), d.add(2, 'day').format('YYYY-MM-DD'), d.subtract(1, 'month').format('YYYY-MM-DD'));
console.log(d.startOf('month').format(), d.endOf('year').toISOString(), d.day(), d.daysInMonth());
console.log(dayjs.utc('2024-12-25').diff(d, 'day'), dayjs.utc('2025-01-01').diff(d, 'month', true).toFixed(3));
console.log(d.isBefore(dayjs.utc('2025-01-01')), d.isValid(), dayjs('not a date').isValid(), d.valueOf(), d.unix());
