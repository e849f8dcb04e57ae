export interface Pagination {
  current_page: number;
  total_pages: number;
  total_count: number;
  per_page: number;
}

/** One page of items plus the service's pagination object. Pages past the end are empty. */
export function paginate<T>(
  items: readonly T[],
  page: number,
  perPage: number,
): { data: T[]; pagination: Pagination } {
  const start = (page - 1) * perPage;
  return {
    data: items.slice(start, start + perPage),
    pagination: {
      current_page: page,
      total_pages: Math.ceil(items.length / perPage),
      total_count: items.length,
      per_page: perPage,
    },
  };
}

/**
 * A serialized JSON answer with `pagination.total_pages` removed (the fault `omitTotalPages`): the live
 * service's paged answers were seen without it, and a client must still stop paging.
 */
export function withoutTotalPages(payload: unknown): unknown {
  if (typeof payload !== "string" || !payload.includes('"total_pages"')) return payload;
  let body: unknown;
  try {
    body = JSON.parse(payload);
  } catch {
    return payload;
  }
  const pagination = (body as { pagination?: unknown } | null)?.pagination;
  if (typeof pagination !== "object" || pagination === null) return payload;
  delete (pagination as { total_pages?: unknown }).total_pages;
  return JSON.stringify(body);
}
