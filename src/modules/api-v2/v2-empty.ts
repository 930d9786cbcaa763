import Type from 'typebox';

/** The version 2 document's answer to updates and deletes: 200 with no content. */
export const EMPTY_OK = Type.Unknown({ description: 'Empty body (200 with no content).', examples: [''] });
