/**
 * How long the user asked for, read from their words: digits (`20 minutes`, `1.5 hours`, `20分钟`), Chinese
 * numerals (`二十分钟`, `一个半小时`, `半小时`) and English number words (`twenty-five minutes`, `an hour`).
 * The result is what was said, in minutes — possibly zero, negative, fractional or huge: deciding whether the
 * agent can time it is the caller's business.
 */

const CHINESE_DIGITS: Readonly<Record<string, number>> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const CHINESE_UNITS: Readonly<Record<string, number>> = { 十: 10, 百: 100 };

const ENGLISH_ONES = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
] as const;
const ENGLISH_TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'] as const;

const DIGITS = String.raw`-?\d+(?:\.\d+)?`;
const CHINESE = '[零〇一二两三四五六七八九十百]+';
const ENGLISH = String.raw`(?<![a-z])(?:(?:${ENGLISH_TENS.join('|')})(?:[-\s](?:${ENGLISH_ONES.slice(1, 10).join('|')}))?|${ENGLISH_ONES.join('|')}|an?)(?![a-z])`;
const NUMBER = `(${DIGITS}|${CHINESE}|${ENGLISH})`;
const MINUTE_UNIT = '分钟|分|minutes?|mins?|m(?![a-z])';
const HOUR_UNIT = '个?小时|个?钟头|hours?|hrs?|h(?![a-z])';

/** `一个半小时`: so many hours and a half. */
const HOURS_AND_A_HALF = new RegExp(String.raw`${NUMBER}\s*个?半\s*(?:小时|钟头)`);
/** A number with its unit; the first one in the text counts. */
const WITH_UNIT = new RegExp(String.raw`${NUMBER}\s*(?:(${MINUTE_UNIT})|(${HOUR_UNIT}))`);
const HALF_AN_HOUR = /half\s+an?\s+hour|半\s*个?\s*(?:小时|钟头)/;
/** A bare number is minutes (`focus 25`). */
const BARE_DIGITS = new RegExp(String.raw`(?<![\d.])(${DIGITS})`);

/** The minutes the (normalized) text asks for, or `undefined` when it names no duration. */
export function readMinutes(text: string): number | undefined {
  const hoursAndHalf = HOURS_AND_A_HALF.exec(text);
  if (hoursAndHalf?.[1] !== undefined) {
    const hours = readNumber(hoursAndHalf[1]);
    if (hours !== undefined) return hours * 60 + 30;
  }
  // Before a number with its unit, or `half an hour` would read as `an hour`.
  if (HALF_AN_HOUR.test(text)) return 30;
  const withUnit = WITH_UNIT.exec(text);
  if (withUnit?.[1] !== undefined) {
    const amount = readNumber(withUnit[1]);
    if (amount !== undefined) return withUnit[3] === undefined ? amount : amount * 60;
  }
  const bare = BARE_DIGITS.exec(text);
  return bare?.[1] === undefined ? undefined : Number(bare[1]);
}

function readNumber(token: string): number | undefined {
  if (/^-?\d/.test(token)) return Number(token);
  if (/^[a-z]/.test(token)) return englishNumber(token);
  return chineseNumber(token);
}

function englishNumber(token: string): number | undefined {
  if (token === 'a' || token === 'an') return 1;
  const [tens, ones] = token.split(/[-\s]/);
  const tensIndex = ENGLISH_TENS.indexOf(tens as (typeof ENGLISH_TENS)[number]);
  if (tensIndex >= 0) return (tensIndex + 2) * 10 + (ones === undefined ? 0 : englishOnes(ones));
  return englishOnes(token);
}

function englishOnes(token: string): number {
  return ENGLISH_ONES.indexOf(token as (typeof ENGLISH_ONES)[number]);
}

/** `十五` → 15, `二十` → 20, `一百二十` → 120, `一百零五` → 105; `undefined` for a run that is not a number. */
function chineseNumber(token: string): number | undefined {
  let total = 0;
  let digit: number | undefined;
  for (const character of token) {
    const value = CHINESE_DIGITS[character];
    if (value !== undefined) {
      if (digit !== undefined && digit !== 0 && value !== 0) return undefined; // 二五: not a numeral
      digit = value;
      continue;
    }
    const unit = CHINESE_UNITS[character];
    if (unit === undefined) return undefined;
    total += (digit ?? 1) * unit;
    digit = undefined;
  }
  return total + (digit ?? 0);
}
