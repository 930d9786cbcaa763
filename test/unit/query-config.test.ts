// pg's query config copy (src/platform/db/query-config.ts): a plain config comes out as pg's own copy makes it, the
// caller's object is never changed, and anything that is not a plain object still goes through pg's own copy.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { copyPlainQueryConfigs, pgNormalizeQueryConfig, pgUtils } from '../../src/platform/db/query-config.js';

const callback = () => {};

function both(config: () => unknown, values?: unknown, cb?: unknown) {
  copyPlainQueryConfigs();
  const oursInput = config();
  const ours = pgUtils.normalizeQueryConfig(oursInput, values, cb);
  const theirsInput = config();
  const theirs = pgNormalizeQueryConfig(theirsInput, values, cb);
  return { ours, theirs, oursInput, theirsInput };
}

describe("pg's query config copy", () => {
  it('is installed, and only once', () => {
    assert.equal(copyPlainQueryConfigs(), true);
    assert.notEqual(pgUtils.normalizeQueryConfig, pgNormalizeQueryConfig);
    assert.equal(copyPlainQueryConfigs(), true);
  });

  const cases: Array<[string, () => unknown, unknown?, unknown?]> = [
    ['a named statement', () => ({ name: 'n', text: 'SELECT $1', values: [1] })],
    ['values given beside the config', () => ({ text: 'SELECT $1' }), [2]],
    ['a callback in the values position', () => ({ text: 'SELECT 1' }), callback],
    ['values and a callback', () => ({ text: 'SELECT $1', rowMode: 'array' }), [3], callback],
    ['a text', () => 'SELECT 1', [4]],
  ];
  for (const [name, config, values, cb] of cases) {
    it(`copies as pg does: ${name}`, () => {
      const { ours, theirs, oursInput, theirsInput } = both(config, values, cb);
      assert.deepEqual(ours, theirs);
      assert.deepEqual(Object.keys(ours), Object.keys(theirs));
      assert.equal(Object.getPrototypeOf(ours), Object.getPrototypeOf(theirs));
      assert.deepEqual(oursInput, theirsInput, "the caller's object is as pg leaves it");
      assert.deepEqual(oursInput, config(), "the caller's object is unchanged");
      if (typeof oursInput === 'object') assert.notEqual(ours, oursInput, 'a copy, not the object itself');
    });
  }

  it("leaves anything but a plain object to pg's own copy (accessors and hidden fields kept)", () => {
    class Statement {
      text = 'SELECT 1';
      get name() {
        return 'from-a-getter';
      }
    }
    const statement = new Statement();
    Object.defineProperty(statement, 'hidden', { value: 1, enumerable: false });
    const ours = pgUtils.normalizeQueryConfig(statement, [5]);
    assert.equal(Object.getPrototypeOf(ours), Statement.prototype);
    assert.equal(Object.getOwnPropertyDescriptor(ours, 'hidden')?.value, 1);
    assert.equal(ours.name, 'from-a-getter');
    assert.deepEqual(ours.values, [5]);
    assert.equal(Object.hasOwn(statement, 'values'), false);
  });
});
