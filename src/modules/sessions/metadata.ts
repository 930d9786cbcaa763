import { dictionary } from '../../platform/dictionary.js';
import { ValidationError } from '../../platform/http/errors.js';

export const METADATA_LIMITS = { pairs: 50, keyLength: 40, valueLength: 500, totalBytes: 8 * 1024 } as const;

// C0 and C1 control characters and DEL: they have no place in a label and break logs, CSV exports and terminals.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const HAS_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A session's metadata as stored: string keys to string values. Accepts a plain object or the list-of-pairs form
 * (`[{"orderId": "A-1"}, {"channel": "web"}]`); `strict` (the integration surface) takes string values only, the
 * version 2 surface also numbers and booleans (stored as their text) and null (the key is dropped). Control characters are stripped from values;
 * every limit is a 400 naming `metadata` or the offending key.
 */
export function sanitizeMetadata(input: unknown, strict: boolean): Record<string, string> | null {
  if (input === null || input === undefined) return null;
  const pairs: Array<[string, unknown]> = [];
  if (Array.isArray(input)) {
    if (strict) throw ValidationError.field('metadata', "'metadata' must be an object of string values.");
    for (const [index, item] of input.entries()) {
      if (!item || typeof item !== 'object' || Array.isArray(item)) {
        throw ValidationError.field(`metadata[${index}]`, 'Each item of the list form must be an object of one pair.');
      }
      pairs.push(...Object.entries(item));
    }
  } else if (typeof input === 'object') {
    pairs.push(...Object.entries(input));
  } else {
    throw ValidationError.field('metadata', "'metadata' must be an object (or a list of one-pair objects).");
  }

  if (pairs.length > METADATA_LIMITS.pairs) {
    throw ValidationError.field('metadata', `'metadata' holds at most ${METADATA_LIMITS.pairs} pairs.`);
  }
  const result: Record<string, string> = dictionary();
  for (const [key, raw] of pairs) {
    const field = `metadata.${key}`;
    if (key.trim() === '' || key.length > METADATA_LIMITS.keyLength || HAS_CONTROL.test(key)) {
      throw ValidationError.field(
        'metadata',
        `Metadata keys are 1 to ${METADATA_LIMITS.keyLength} characters without control characters ('${key.slice(0, 60)}').`,
      );
    }
    if (Object.hasOwn(result, key)) throw ValidationError.field(field, `The key '${key}' appears twice.`);
    // The published version 2 revision's values are nullable: a null value is no value, so the key is not kept.
    if (raw === null && !strict) continue;
    let value: string;
    if (typeof raw === 'string') value = raw;
    else if (!strict && (typeof raw === 'number' || typeof raw === 'boolean') && Number.isFinite(Number(raw))) {
      value = String(raw);
    } else {
      throw ValidationError.field(field, `Metadata values must be strings${strict ? '' : ', numbers or booleans'}.`);
    }
    value = value.replace(CONTROL, '');
    if (value.length > METADATA_LIMITS.valueLength) {
      throw ValidationError.field(field, `Metadata values are at most ${METADATA_LIMITS.valueLength} characters.`);
    }
    result[key] = value;
  }
  if (Buffer.byteLength(JSON.stringify(result), 'utf8') > METADATA_LIMITS.totalBytes) {
    throw ValidationError.field('metadata', `'metadata' is at most ${METADATA_LIMITS.totalBytes} bytes as UTF-8 JSON.`);
  }
  return result;
}
