import { createRequire } from 'node:module';

/**
 * pg copies every query's config object before filling in its values, so that the caller's object is left as it was.
 * It copies with property descriptors (`Object.getOwnPropertyDescriptors` into `Object.defineProperties`), which V8
 * runs in its runtime: 3–6 µs a statement, 3.4% of the server's CPU in an invoice create + publish. A config that
 * is a plain object (every statement of ours: name, text, values) has only enumerable data properties, so a spread
 * copies exactly what the descriptor copy does. Other objects still go through pg's own copy.
 * docs/decisions.md, "pg's per-query work that our statements do not need".
 */
type Normalize = (config: unknown, values?: unknown, callback?: unknown) => Record<string, unknown>;

const require = createRequire(import.meta.url);
const utils = require('pg/lib/utils.js') as { normalizeQueryConfig: Normalize };
const original = utils.normalizeQueryConfig;

function normalizeQueryConfig(config: unknown, values?: unknown, callback?: unknown): Record<string, unknown> {
  if (typeof config !== 'object' || config === null || Object.getPrototypeOf(config) !== Object.prototype) {
    return original(config, values, callback);
  }
  const copy: Record<string, unknown> = { ...config };
  if (values) {
    if (typeof values === 'function') copy.callback = values;
    else copy.values = values;
  }
  if (callback) copy.callback = callback;
  return copy;
}

/** Installs the plain copy (once per process; pools call it). False if pg no longer has the function. */
export function copyPlainQueryConfigs(): boolean {
  if (utils.normalizeQueryConfig === normalizeQueryConfig) return true;
  if (typeof original !== 'function' || original.length !== 3) return false;
  utils.normalizeQueryConfig = normalizeQueryConfig;
  return true;
}

/** For the test that compares both: pg's own function, and where it lives. */
export const pgNormalizeQueryConfig = original;
export const pgUtils = utils;
