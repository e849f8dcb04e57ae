import { ApiError } from "./errors";

/** One page as the service answered it: its items and whatever pagination it sent (maybe none). */
export interface Page<T> {
  items: readonly T[];
  pagination?: { current_page?: unknown; total_pages?: unknown; per_page?: unknown };
}

export interface PagingOptions {
  /** What is paged, in words for an error message ("accounts"). */
  what: string;
  /** The page size asked for: a shorter page is the last one. */
  perPage: number;
  /**
   * The caller wants at most this many items: paging stops once they are in hand (a documented cap such as
   * RENT.LOOKUP's max_results). Without it, every page is read up to `maxPages`.
   */
  maxItems?: number;
  /** Hard bound on requests: reaching it without an end is an error, never another request. */
  maxPages: number;
}

/** Why paging stopped, for tests and diagnostics. */
export type PagingEnd = "last_page" | "short_page" | "empty_page" | "enough";

export interface Paged<T> {
  items: T[];
  pages: number;
  end: PagingEnd;
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * Reads pages 1, 2, ... until the service's answer shows the end. The live service's paged answers were seen
 * without `pagination.total_pages`, and a loop that trusts it never ends; so paging also stops on a short or
 * empty page, fails on a page the service sends twice (it ignored `page`), and fails at `maxPages`.
 */
export async function collectPages<T>(
  fetchPage: (page: number) => Promise<Page<T>>,
  options: PagingOptions,
): Promise<Paged<T>> {
  const items: T[] = [];
  let previous: string | undefined;
  for (let page = 1; ; page++) {
    const answer = await fetchPage(page);
    if (answer.items.length === 0) return { items, pages: page, end: "empty_page" };
    const sentPage = positiveInteger(answer.pagination?.current_page);
    const fingerprint = JSON.stringify(answer.items);
    if ((sentPage !== undefined && sentPage !== page) || fingerprint === previous) {
      throw new ApiError(
        "server",
        `The service answered the request for page ${page} of ${options.what} with page ${sentPage ?? page - 1} again: paging stopped after ${items.length} ${options.what}.`,
      );
    }
    previous = fingerprint;
    items.push(...answer.items);
    if (options.maxItems !== undefined && items.length >= options.maxItems)
      return { items: items.slice(0, options.maxItems), pages: page, end: "enough" };
    // A service that sends total_pages is believed (it may serve fewer per page than asked); else a page
    // shorter than the page size it says it used (or the one asked for) is the last.
    const totalPages = positiveInteger(answer.pagination?.total_pages);
    if (totalPages !== undefined) {
      if (page >= totalPages) return { items, pages: page, end: "last_page" };
    } else if (answer.items.length < (positiveInteger(answer.pagination?.per_page) ?? options.perPage)) {
      return { items, pages: page, end: "short_page" };
    }
    if (page >= options.maxPages) {
      throw new ApiError(
        "server",
        `The service kept sending full pages of ${options.what}: paging stopped at ${options.maxPages} pages (${items.length} ${options.what}) without reaching the end.`,
      );
    }
  }
}
