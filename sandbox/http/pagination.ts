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
