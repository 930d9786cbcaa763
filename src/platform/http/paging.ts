import Type, { type TProperties, type TSchema } from 'typebox';
import { isUuid } from '../crypto/ids.js';
import { ValidationError } from './errors.js';

export const DEFAULT_PAGE_SIZE = 15;
export const MAX_PAGE_SIZE = 100;
/** No list holds a billion records: a page beyond this is a mistake (a 400 naming `page`), not an empty page. */
export const MAX_PAGE = 10_000_000;

export interface ListSpec {
  /** Wire name → SQL expression. Matching is case-insensitive, so `CompanyName` and `companyName` both work. */
  orderBy: Record<string, string>;
  defaultOrderBy: string;
  /** SQL expression used as the final tie-breaker so pages never overlap. */
  tieBreaker: string;
  /**
   * Wire names whose column is NOT NULL: they sort without `NULLS LAST`, so a plain (or DESC) index on the column
   * serves the order (PostgreSQL does not infer it from the constraint) and a page reads only its rows.
   */
  notNull?: readonly string[];
  defaultPageSize?: number;
}

export interface PageRequest {
  limit: number;
  offset: number;
  /** A complete `ORDER BY` clause built only from the allow-list. */
  orderSql: string;
  search: string | undefined;
}

/** The query parameters every list shares; a list adds its own filters with `extra`. */
export function listQuerySchema<P extends TProperties>(spec: ListSpec, extra: P) {
  return Type.Object({
    page: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_PAGE,
        description: `Zero-based page index, at most ${MAX_PAGE}. Default 0.`,
      }),
    ),
    pageSize: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: MAX_PAGE_SIZE,
        description: `Items per page, at most ${MAX_PAGE_SIZE}. Default ${spec.defaultPageSize ?? DEFAULT_PAGE_SIZE}.`,
      }),
    ),
    orderBy: Type.Optional(
      Type.String({
        description: `Sort field, one of: ${Object.keys(spec.orderBy).join(', ')}. Default ${spec.defaultOrderBy}.`,
      }),
    ),
    asc: Type.Optional(Type.Boolean({ description: 'true sorts ascending; default false (descending).' })),
    search: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive partial match.' })),
    ...extra,
  });
}

export function pageRequest(
  query: { page?: number; pageSize?: number; orderBy?: string; asc?: boolean; search?: string },
  spec: ListSpec,
): PageRequest {
  const pageSize = query.pageSize ?? spec.defaultPageSize ?? DEFAULT_PAGE_SIZE;
  const page = query.page ?? 0;
  const wanted = (query.orderBy ?? spec.defaultOrderBy).toLowerCase();
  const entry = Object.entries(spec.orderBy).find(([name]) => name.toLowerCase() === wanted);
  const column = entry?.[1];
  if (!column) {
    throw ValidationError.field('orderBy', `'orderBy' must be one of: ${Object.keys(spec.orderBy).join(', ')}.`);
  }
  const direction = query.asc ? 'ASC' : 'DESC';
  const search = query.search?.trim();
  return {
    limit: pageSize,
    offset: page * pageSize,
    orderSql: `ORDER BY ${column} ${direction}${spec.notNull?.includes(entry![0]) ? '' : ' NULLS LAST'}, ${spec.tieBreaker} ${direction}`,
    search: search ? search : undefined,
  };
}

/**
 * The published version 2 revision's paging, beside the older `page`/`orderBy`/`asc`: `pageIndex`, `sortBy`,
 * `sortOrder`. A list taking both answers both envelopes (`items`, `total` and `pageInfo`); where the revisions'
 * defaults differ (page size, order), the request's terms decide (`listTermsOf`, docs/api-v2.md).
 */
export const PUBLISHED_PAGE_SIZE = 20;

export const PublishedPaging = {
  pageIndex: Type.Optional(
    Type.Integer({ minimum: 0, maximum: MAX_PAGE, description: 'Zero-based (published revision). Default 0.' }),
  ),
  sortBy: Type.Optional(Type.String({ maxLength: 100, description: 'Alias of orderBy (published revision).' })),
  sortOrder: Type.Optional(
    Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'asc or desc (published revision).' }),
  ),
};

/**
 * Which revision's terms a list request is in: the older one when it pages by `page` or sorts by `orderBy` without
 * the published `pageIndex`, or when the caller asks for the older revision (`x-api-version`, see api-v2); the
 * published one otherwise, a request with no paging at all included (the vendor's v2 CLI sends none by default).
 */
export function listTermsOf(
  query: { page?: number; pageIndex?: number; orderBy?: string },
  olderRequested = false,
): 'published' | 'older' {
  if (olderRequested) return 'older';
  if (query.pageIndex !== undefined) return 'published';
  return query.page !== undefined || query.orderBy !== undefined ? 'older' : 'published';
}

export function publishedPageRequest(
  query: {
    page?: number;
    pageIndex?: number;
    pageSize?: number;
    orderBy?: string;
    sortBy?: string;
    asc?: boolean;
    sortOrder?: 'asc' | 'desc';
    search?: string;
  },
  spec: ListSpec,
  terms: 'published' | 'older' = listTermsOf(query),
): { page: PageRequest; published: boolean; pageIndex: number; pageSize: number } {
  const pageIndex = query.pageIndex ?? query.page ?? 0;
  const published = terms === 'published';
  // The published revision's default page is 20 items; the older lists keep their own default.
  const pageSize = query.pageSize ?? (published ? PUBLISHED_PAGE_SIZE : (spec.defaultPageSize ?? DEFAULT_PAGE_SIZE));
  const orderBy = query.sortBy ?? query.orderBy;
  const asc = query.sortOrder ? query.sortOrder === 'asc' : query.asc;
  const page = pageRequest(
    {
      page: pageIndex,
      pageSize,
      ...(orderBy ? { orderBy } : {}),
      ...(asc !== undefined ? { asc } : {}),
      ...(query.search ? { search: query.search } : {}),
    },
    spec,
  );
  return { page, published, pageIndex, pageSize };
}

/** Escapes LIKE wildcards so a search for "50%" means the text "50%". */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function Paged<T extends TSchema>(item: T, example?: unknown) {
  return Type.Object(
    {
      items: Type.Array(item, { description: 'Records of the current page.' }),
      total: Type.Integer({ description: 'Count of all matching records, independent of the page size.' }),
    },
    example ? { examples: [example] } : {},
  );
}

/**
 * The published version 2 surface's page description (wire-notes, Pagination): `{pageIndex, pageSize, totalItems,
 * totalPages, hasMore}` beside `items`. Every version 2 list paged by `pageIndex` answers it (pageInfoOf).
 */
export const PageInfo = Type.Object(
  {
    pageIndex: Type.Integer({ minimum: 0, description: 'Zero-based index of this page.' }),
    pageSize: Type.Integer({ minimum: 1, description: 'Items per page.' }),
    totalItems: Type.Integer({ minimum: 0, description: 'Every matching item, independent of the page.' }),
    totalPages: Type.Integer({ minimum: 0, description: 'ceil(totalItems / pageSize).' }),
    hasMore: Type.Boolean({ description: 'Whether a page follows this one.' }),
  },
  { additionalProperties: false },
);

export function pageInfoOf(pageIndex: number, pageSize: number, totalItems: number) {
  return {
    pageIndex,
    pageSize,
    totalItems,
    totalPages: Math.ceil(totalItems / pageSize),
    hasMore: (pageIndex + 1) * pageSize < totalItems,
  };
}

export interface DateRange {
  from: Date | undefined;
  to: Date | undefined;
}

const YEAR_MONTH = /^\d{4}-\d{2}$/;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** Query schema for an ISO 8601 date or date-time filter. */
export function DateFilter(description: string) {
  return Type.Optional(
    Type.String({ description: `${description} ISO 8601 UTC: year-month, date or date-time.`, maxLength: 40 }),
  );
}

/**
 * Parses an inclusive from/to pair. A date without a time means the start of that day for `from` and its end for
 * `to`; a date-time without a zone is UTC. `from` alone has no upper bound. On a recorded date (creation, payment,
 * an attempt) that runs it to the present (docs/api-conventions.md), since nothing is recorded after the business
 * clock's now: a `from` in the future is an empty page, not an error. On a scheduled date (an invoice's issue and due
 * dates) it reaches every later one (docs/api-conventions.md). Only a pair sent in the wrong order is a 400.
 */
export function dateRange(
  fromField: string,
  from: string | undefined,
  toField: string,
  to: string | undefined,
): DateRange {
  const parsedFrom = from === undefined ? undefined : parseInstant(fromField, from, 'start');
  const parsedTo = to === undefined ? undefined : parseInstant(toField, to, 'end');
  if (parsedFrom && parsedTo && parsedFrom > parsedTo) {
    throw ValidationError.field(fromField, `'${fromField}' must not be after '${toField}'.`);
  }
  return { from: parsedFrom, to: parsedTo };
}

function parseInstant(field: string, value: string, edge: 'start' | 'end'): Date {
  const text = value.trim();
  let date: Date | undefined;
  if (YEAR_MONTH.test(text)) {
    // A month: its first instant for `from`, its last for `to`.
    const [year, month] = text.split('-').map(Number) as [number, number];
    if (month >= 1 && month <= 12) {
      date = new Date(Date.UTC(year, month - 1 + (edge === 'end' ? 1 : 0), 1) - (edge === 'end' ? 1 : 0));
    }
  } else if (DATE_ONLY.test(text)) {
    date = new Date(`${text}T00:00:00.000Z`);
    if (edge === 'end' && !Number.isNaN(date.getTime())) date = new Date(date.getTime() + 86_400_000 - 1);
  } else if (DATE_TIME.test(text)) {
    date = new Date(/(Z|[+-]\d{2}:?\d{2})$/i.test(text) ? text : `${text}Z`);
  }
  if (!date || Number.isNaN(date.getTime())) {
    throw ValidationError.field(field, `'${field}' must be an ISO 8601 date or date-time (e.g. 2026-01-31T00:00:00Z).`);
  }
  return date;
}

/**
 * A query parameter that lists values, in every form clients send: repeated (`?ids=a&ids=b`, how OpenAPI's default
 * `form` style with `explode` sends an array, and what the schema documents), comma-separated (`?ids=a,b`), or both.
 * Read it with listValues (or idList, enumIdList).
 */
export const ListParam = (description: string, options: { maxItems?: number; maxLength?: number } = {}) =>
  Type.Optional(
    Type.Array(Type.String({ maxLength: options.maxLength ?? 3700 }), {
      maxItems: options.maxItems ?? 100,
      description: `${description} Repeat the parameter (\`?a=x&a=y\`) or separate values with commas (\`?a=x,y\`).`,
    }),
  );

/** The values of a list parameter (see ListParam): every comma-separated part of every occurrence, trimmed. */
export function listValues(raw: string | readonly string[] | undefined): string[] | undefined {
  if (raw === undefined) return undefined;
  return [raw]
    .flat()
    .flatMap((part) => part.split(','))
    .map((value) => value.trim())
    .filter(Boolean);
}

/** A list of ids in a query parameter (see ListParam); any malformed one is a 400 naming the field. */
export function idList(field: string, raw: string | readonly string[] | undefined): string[] | undefined {
  const ids = listValues(raw);
  if (ids === undefined) return undefined;
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) throw ValidationError.field(field, `'${bad}' is not a valid id.`);
  return ids;
}

/** A list of ids from a closed set (`1,3`, see ListParam), each checked against `allowed`. */
export function enumIdList(
  field: string,
  raw: string | readonly string[] | undefined,
  allowed: readonly number[],
): number[] | undefined {
  const values = listValues(raw);
  if (values === undefined) return undefined;
  const ids = values.map(Number);
  const bad = values.find((value, n) => !/^\d+$/.test(value) || !allowed.includes(ids[n]!));
  if (bad !== undefined) throw ValidationError.field(field, `'${bad}' is not one of ${allowed.join(', ')}.`);
  return ids;
}
