import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Type } from 'typebox';
import { textProblem } from '../../src/platform/http/text-check.js';
import { multiline } from '../../src/platform/http/validation.js';

const CONTROL = 'must not contain control characters';
const UNICODE = 'must be valid Unicode text';
const KEY = 'has a field name with control characters or invalid Unicode';

describe('the planned check for unreadable text in a request', () => {
  const Address = Type.Object({ line1: Type.String(), note: multiline(Type.String()) });
  const Body = Type.Object(
    {
      name: Type.String(),
      description: multiline(Type.String()),
      address: Address,
      tags: Type.Array(Type.String()),
      metadata: Type.Unknown(),
      either: Type.Union([Type.Object({ a: Type.String() }), Type.Object({ b: multiline(Type.String()) })]),
      credentials: Type.Record(Type.String(), multiline(Type.String())),
      extras: Type.Object({ fixed: Type.String() }, { additionalProperties: Type.Object({ x: Type.String() }) }),
    },
    { additionalProperties: true },
  );

  it('passes readable text and values that are not text', () => {
    const value = {
      name: 'Ada Lovelace',
      description: 'Two lines:\n\tindented\r\n',
      address: { line1: '1 Main St', note: 'ring\ntwice' },
      tags: ['a', 'b'],
      metadata: { anything: 'goes\u0001', nested: [1, null, true] },
      either: { b: 'multi\nline' },
      credentials: { apiKey: 'line one\nline two' },
      extras: { fixed: 'f', more: { x: 'y' } },
      count: 3,
      flag: false,
      nothing: null,
    };
    assert.equal(textProblem(Body, value), undefined);
    assert.equal(textProblem(Body, 'emoji \ud83d\ude00 is a whole pair'), undefined);
  });

  it('refuses control characters where the schema holds single-line text, naming the field', () => {
    assert.deepEqual(textProblem(Body, { name: 'a\u0000b' }), { path: '/name', message: CONTROL });
    assert.deepEqual(textProblem(Body, { address: { line1: 'x\ny' } }), { path: '/address/line1', message: CONTROL });
    assert.deepEqual(textProblem(Body, { tags: ['ok', 'no\u007f'] }), { path: '/tags/1', message: CONTROL });
    // A union takes the first branch that declares the key.
    assert.deepEqual(textProblem(Body, { either: { a: 'x\ty' } }), { path: '/either/a', message: CONTROL });
    // A key the schema does not describe is held to the strict rules.
    assert.deepEqual(textProblem(Body, { undeclared: 'a\nb' }), { path: '/undeclared', message: CONTROL });
    // additionalProperties given as a schema: other keys fall under it.
    assert.deepEqual(textProblem(Body, { extras: { more: { x: 'a\nb' } } }), {
      path: '/extras/more/x',
      message: CONTROL,
    });
  });

  it('keeps TAB, LF and CR in multi-line text but refuses the other controls there', () => {
    assert.deepEqual(textProblem(Body, { description: 'a\u0000b' }), { path: '/description', message: CONTROL });
    assert.deepEqual(textProblem(Body, { credentials: { apiKey: 'a\u001bb' } }), {
      path: '/credentials/apiKey',
      message: CONTROL,
    });
    assert.equal(textProblem(Body, { address: { note: 'a\r\nb' } }), undefined);
  });

  it('refuses a lone surrogate everywhere, also under a schema that declares nothing', () => {
    assert.deepEqual(textProblem(Body, { description: '\ud800' }), { path: '/description', message: UNICODE });
    assert.deepEqual(textProblem(Body, { metadata: { deep: ['\udc00'] } }), {
      path: '/metadata/deep/0',
      message: UNICODE,
    });
  });

  it('checks keys: control characters and broken surrogates in a field name are refused at the object', () => {
    assert.deepEqual(textProblem(Body, { address: { 'li\nne1': 'x' } }), { path: '/address', message: KEY });
    assert.deepEqual(textProblem(Body, { metadata: { '\ud800': 1 } }), { path: '/metadata', message: KEY });
    // Under a schema that declares nothing, a control character in a key is the service's to judge.
    assert.equal(textProblem(Body, { metadata: { 'a\nb': 1 } }), undefined);
  });

  it('escapes the path as a JSON pointer and does not take a key from Object.prototype', () => {
    assert.deepEqual(textProblem(Body, { 'a/b~c': 'x\u0000' }), { path: '/a~1b~0c', message: CONTROL });
    assert.deepEqual(textProblem(Body, { constructor: 'x\n' }), { path: '/constructor', message: CONTROL });
  });

  it('plans once per schema: the same answer on every call, for a schema with no object at its top', () => {
    const list = Type.Array(Type.Object({ v: Type.String() }));
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(textProblem(list, [{ v: 'ok' }, { v: 'bad\u0002' }]), { path: '/1/v', message: CONTROL });
    }
    assert.equal(textProblem(Type.String(), 'plain'), undefined);
    assert.deepEqual(textProblem(Type.String(), 'a\nb'), { path: '', message: CONTROL });
    assert.deepEqual(textProblem(undefined, 'a\nb'), { path: '', message: CONTROL });
  });
});
