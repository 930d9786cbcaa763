import Type from 'typebox';
import { Compile } from 'typebox/compile';

const S = Type.Object(
  {
    a: Type.Refine(
      Type.Number(),
      (v) => v > 2,
      () => 'must be > 2',
    ),
    b: Type.Union([Type.String({ minLength: 2 }), Type.Null()]),
    c: Type.Union([Type.Literal('X'), Type.Literal('Y')]),
    d: Type.Optional(Type.Array(Type.Object({ n: Type.Integer() }, { additionalProperties: false }))),
  },
  { additionalProperties: false },
);
const C = Compile(S);
console.log(JSON.stringify([...C.Errors({ a: 1, b: 'x', c: 'Z', d: [{ n: 1.5, q: 1 }] })], null, 1));
console.log(JSON.stringify([...C.Errors({ b: null, c: 'X' })], null, 1));
