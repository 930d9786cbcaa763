/**
 * Log redaction. Logs are JSON lines; before a line is written every key that names a secret is blanked, and any
 * string that looks like a card number is masked, however deep it sits. This is a net under the rule that code never
 * logs request bodies: a mistake elsewhere must not turn into a PAN in a log file.
 */
const SENSITIVE_KEY =
  /pass(word)?|secret|token|authorization|cookie|^pan$|cardnumber|accountnumber|securitycode|cvv|cvc|^pin$|pinksn|track[12]|emvtags|api[-_]?key|hmac|private|taxid/i;

import { dictionary } from '../dictionary.js';

const REDACTED = '[REDACTED]';

// 13–19 digits, optionally grouped by spaces or dashes, not part of a longer run of digits or letters. UUIDs are
// matched first and left alone: their digit-only segments joined by dashes would otherwise look like a card number.
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const PAN_LIKE = new RegExp(`${UUID}|(?<![\\dA-Za-z])(?:\\d[ -]?){12,18}\\d(?![\\dA-Za-z])`, 'g');

/**
 * Whether `text` has at least as many digits as the shortest card number: most log strings have not. With
 * `inOneStretch` they must lie in one stretch of digits, spaces and dashes, as every match of the pattern does, so
 * identifiers (UUIDs, correlation ids), whose digits letters keep apart, fail too. A URL is counted whole instead: its
 * percent-encoding puts `%` between the digits of a grouped card number.
 */
function hasThirteenDigits(text: string, inOneStretch: boolean): boolean {
  let digits = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      if (++digits === 13) return true;
    } else if (inOneStretch && code !== 32 && code !== 45) digits = 0;
  }
  return false;
}

export function redactString(value: string): string {
  // Every string of every log line comes here; the pattern's look-behind costs more than this scan.
  if (!hasThirteenDigits(value, true)) return value;
  return value.replace(PAN_LIKE, (match) => {
    if (match.length === 36 && match[8] === '-') return match;
    const digits = match.replace(/[ -]/g, '');
    return `${digits.slice(0, 6)}${'*'.repeat(Math.max(0, digits.length - 10))}${digits.slice(-4)}`;
  });
}

/**
 * The value with secrets blanked and card numbers masked. Every log line comes here, and nearly all have nothing to
 * hide: a value with nothing to change is answered as it is, and a copy is made only from the first change.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return '[TRUNCATED]';
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item = redact(value[i], depth + 1);
      if (out === undefined && item !== value[i]) out = value.slice(0, i);
      out?.push(item);
    }
    return out ?? value;
  }
  if (value instanceof Error) {
    return { type: value.name, message: redactString(value.message), stack: value.stack && redactString(value.stack) };
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    // Anything but a plain object is copied as before (its own fields only): a URL or a class could serialise more.
    const prototype = Object.getPrototypeOf(value);
    let out: Record<string, unknown> | undefined =
      prototype === Object.prototype || prototype === null ? undefined : dictionary();
    for (let i = 0; i < entries.length; i++) {
      const [key, inner] = entries[i]!;
      const kept =
        SENSITIVE_KEY.test(key) && inner !== null && inner !== undefined ? REDACTED : redact(inner, depth + 1);
      if (out === undefined && kept !== inner) {
        out = dictionary();
        for (let j = 0; j < i; j++) out[entries[j]![0]] = entries[j]![1];
      }
      if (out) out[key] = kept;
    }
    return out ?? value;
  }
  return value;
}

/** Whether the text holds something a card number could be in any of the forms redactString masks. */
export function looksLikeCardNumber(value: string): boolean {
  return redactString(value) !== value;
}

/**
 * A URL as the logs and the request log keep it: the values of sensitive query parameters blanked, and card numbers
 * masked in the path and in every query value as they read once decoded (`4571%207367…`, `4571+7367…`), the form a
 * person typed, since masking the encoded text misses the grouped forms. Every sink takes its URL from here.
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  // Percent-encoding a digit writes more digits (%34 is '4'), never fewer: a URL with too few has no card number.
  if (q < 0 && !hasThirteenDigits(url, false)) return url;
  const path = (q < 0 ? url : url.slice(0, q))
    .split('/')
    .map((segment) => {
      const decoded = safelyDecoded(segment);
      return decoded !== undefined && looksLikeCardNumber(decoded)
        ? encodeURIComponent(redactString(decoded))
        : redactString(segment);
    })
    .join('/');
  if (q < 0) return path;
  const params = new URLSearchParams(url.slice(q + 1));
  const kept = new URLSearchParams();
  for (const [key, value] of params) {
    kept.append(redactString(key), SENSITIVE_KEY.test(key) ? REDACTED : redactString(value));
  }
  return redactString(`${path}?${kept.toString()}`);
}

function safelyDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
