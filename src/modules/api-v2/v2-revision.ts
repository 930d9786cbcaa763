import type { FastifyRequest } from 'fastify';
import { listTermsOf } from '../../platform/http/paging.js';

/** The `x-api-version` values that ask for the older revision (the vendor SDK's 2.x, release 2.12) on a clash. */
const OLDER = new Set(['2.0', '2.12']);

/**
 * Which revision's meaning a request gets where the two revisions clash on an answer a request cannot otherwise tell
 * apart (docs/api-v2.md): the published one, unless `x-api-version` names the older one.
 */
export function revisionOf(request: FastifyRequest): 'published' | 'older' {
  const header = request.headers['x-api-version'];
  return typeof header === 'string' && OLDER.has(header.trim()) ? 'older' : 'published';
}

/** The terms of a list request (platform/http/paging.ts `listTermsOf`), `x-api-version` included. */
export function listTerms(
  request: FastifyRequest,
  query: { page?: number; pageIndex?: number; orderBy?: string },
): 'published' | 'older' {
  return listTermsOf(query, revisionOf(request) === 'older');
}
