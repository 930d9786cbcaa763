import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { normalizeAddress } from '../../src/modules/reference/address.js';
import { ValidationError } from '../../src/platform/http/errors.js';
import { dateRange, likePattern, pageRequest } from '../../src/platform/http/paging.js';
import { fieldErrorsFrom, onlyText, validatorCompiler } from '../../src/platform/http/validation.js';

describe('addresses', () => {
  it('accepts both shapes and every way of naming a state and country', () => {
    const canonical = {
      line1: '123 Test St',
      line2: null,
      city: 'New York',
      postalCode: '10001',
      stateId: 33,
      countryId: 1,
    };
    assert.deepEqual(
      normalizeAddress({ line1: '123 Test St', city: 'New York', postalCode: '10001', stateId: 33, countryId: 1 }, 'a'),
      canonical,
    );
    assert.deepEqual(
      normalizeAddress(
        { addressLine1: '123 Test St', city: 'New York', zip: '10001', stateCode: 'ny', countryCode: 'US' },
        'a',
      ),
      canonical,
    );
    assert.deepEqual(
      normalizeAddress({ addressLine1: ' 123 Test St ', city: 'New York', zip: '10001', stateName: 'New York' }, 'a'),
      canonical,
    );
  });

  it('names contradictions and unknown values by field', () => {
    try {
      normalizeAddress(
        { line1: 'a', addressLine1: 'b', stateId: 33, stateCode: 'CA', countryId: 2, postalCode: '1' },
        'billingAddress',
      );
      assert.fail('expected a validation error');
    } catch (error) {
      assert.ok(error instanceof ValidationError);
      const fields = Object.keys(error.errors ?? {}).sort();
      assert.deepEqual(fields, [
        'billingAddress.addressLine1',
        'billingAddress.countryId',
        'billingAddress.postalCode',
        'billingAddress.stateCode',
      ]);
    }
  });
});

describe('schema errors become field messages', () => {
  const schema = Type.Object(
    {
      name: Type.String({ minLength: 1 }),
      amount: Type.Number({ minimum: 0 }),
      kind: Type.Union([Type.Literal('A'), Type.Literal('B')]),
      note: Type.Union([Type.String({ maxLength: 3 }), Type.Null()]),
      nested: Type.Optional(Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false })),
    },
    { additionalProperties: false },
  );
  const check = Compile(schema);
  const errorsFor = (value: unknown) => fieldErrorsFrom([...check.Errors(value)] as any, 'body');

  it('reports required, type, enum, length, format and unknown fields', () => {
    const errors = errorsFor({ amount: 'x', kind: 'C', note: 'long', bogus: true });
    assert.deepEqual(Object.keys(errors).sort(), ['amount', 'bogus', 'kind', 'name', 'note']);
    assert.match(errors.name![0]!, /required/);
    assert.match(errors.amount![0]!, /type number/);
    assert.match(errors.kind![0]!, /"A", "B"/);
    assert.match(errors.note![0]!, /at most 3/);
    assert.match(errors.bogus![0]!, /could not be mapped/);
    const valid = { name: 'n', amount: 1, kind: 'A', note: null };
    assert.deepEqual(Object.keys(errorsFor({ ...valid, nested: { id: 'nope' } })), ['nested.id']);
    assert.match(errorsFor({ ...valid, nested: { id: 'nope' } })['nested.id']![0]!, /identifier/);
    assert.match(
      errorsFor({ ...valid, nested: { id: '2d7b6f7e-4e57-4f0b-9a59-1d2b5e2f3f11', extra: 1 } })['nested.extra']![0]!,
      /could not be mapped/,
    );
  });

  it('names the query parameter when a query string fails as a whole', () => {
    const errors = fieldErrorsFrom(
      [{ keyword: 'type', instancePath: '', params: { type: 'object' }, message: 'x' }],
      'querystring',
    );
    assert.deepEqual(Object.keys(errors), ['querystring']);
  });
});

describe('paging helpers', () => {
  const spec = {
    orderBy: { name: 'lower(name)', createdOn: 'created_at' },
    defaultOrderBy: 'createdOn',
    tieBreaker: 'id',
  };
  it('builds ORDER BY only from the allow-list', () => {
    assert.equal(pageRequest({}, spec).orderSql, 'ORDER BY created_at DESC NULLS LAST, id DESC');
    assert.equal(
      pageRequest({ orderBy: 'NAME', asc: true }, spec).orderSql,
      'ORDER BY lower(name) ASC NULLS LAST, id ASC',
    );
    assert.throws(() => pageRequest({ orderBy: 'name; DROP TABLE x' }, spec), ValidationError);
    assert.deepEqual(
      {
        limit: pageRequest({ page: 3, pageSize: 20 }, spec).limit,
        offset: pageRequest({ page: 3, pageSize: 20 }, spec).offset,
      },
      { limit: 20, offset: 60 },
    );
  });

  it('parses inclusive date ranges; from alone has no upper bound, so a future from is an empty range', () => {
    const days = dateRange('from', '2026-06-01', 'to', '2026-06-02');
    assert.equal(days.from!.toISOString(), '2026-06-01T00:00:00.000Z');
    assert.equal(days.to!.toISOString(), '2026-06-02T23:59:59.999Z');
    const open = dateRange('from', '2026-06-01T08:30:00Z', 'to', undefined);
    assert.equal(open.to, undefined);
    assert.equal(
      dateRange('from', '2026-06-01T08:30:00', 'to', undefined).from!.toISOString(),
      '2026-06-01T08:30:00.000Z',
    );
    // A from in the future without a to: no error (the caller sent no 'to' to be after).
    assert.doesNotThrow(() => dateRange('from', '2999-01-01', 'to', undefined));
    assert.throws(() => dateRange('from', '2026-13-45', 'to', undefined), ValidationError);
    assert.throws(() => dateRange('from', '2026-06-02', 'to', '2026-06-01'), ValidationError);
  });

  it('escapes LIKE wildcards', () => {
    assert.equal(likePattern('50%_off\\'), '%50\\%\\_off\\\\%');
  });
});

describe('query strings, path parameters and headers', () => {
  const compile = (schema: ReturnType<typeof Type.Object>, httpPart: string) =>
    validatorCompiler({ schema, httpPart } as any) as (input: unknown) => { value?: unknown; error?: unknown[] };

  it('knows a part whose every field is text, where conversion could change nothing', () => {
    assert.equal(onlyText(Type.Object({ id: Type.String({ format: 'uuid' }) })), true);
    assert.equal(
      onlyText(
        Type.Object({
          kind: Type.Union([Type.Literal('a'), Type.Literal('b')]),
          status: Type.Enum(['x', 'y']),
          token: Type.Optional(Type.String()),
        }),
      ),
      true,
    );
    assert.equal(onlyText(Type.Object({ pageSize: Type.Integer() })), false);
    assert.equal(onlyText(Type.Object({ when: Type.Union([Type.Literal('now'), Type.Integer()]) })), false);
    assert.equal(onlyText(Type.Object({ on: Type.Boolean() })), false);
    assert.equal(onlyText(Type.Object({ tags: Type.Array(Type.String()) })), false);
  });

  it('still converts numbers and booleans, and checks text as it came', () => {
    const query = compile(Type.Object({ pageSize: Type.Integer(), on: Type.Optional(Type.Boolean()) }), 'querystring');
    assert.deepEqual(query({ pageSize: '20', on: 'true' }).value, { pageSize: 20, on: true });
    assert.ok(query({ pageSize: 'many' }).error);
    const params = compile(Type.Object({ id: Type.String({ format: 'uuid' }) }), 'params');
    const id = '01a1fd5d-3315-72a9-9ff6-858614692571';
    assert.deepEqual(params({ id }).value, { id });
    assert.ok(params({ id: 'nope' }).error);
    assert.ok(params({ id: [id, id] }).error, 'a repeated value is not text');
  });
});
