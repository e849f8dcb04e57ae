import { collectPages } from "../../src/api/paging";

describe("collectPages on a service that ignores `page`", () => {
  it("stops at the second request when the same full page comes back without current_page", async () => {
    const asked: number[] = [];
    const samePage = async (page: number) => {
      asked.push(page);
      return { items: ["a", "b"] };
    };
    await expect(
      collectPages(samePage, { what: "accounts", perPage: 2, maxPages: 10 }),
    ).rejects.toMatchObject({
      kind: "server",
      message:
        "The service answered the request for page 2 of accounts with page 1 again: paging stopped after 2 accounts.",
    });
    expect(asked).toEqual([1, 2]);
  });

  it("stops when the service names a page other than the one asked for", async () => {
    const asked: number[] = [];
    const firstPageAlways = async (page: number) => {
      asked.push(page);
      return { items: [page * 10, page * 10 + 1], pagination: { current_page: 1 } };
    };
    await expect(
      collectPages(firstPageAlways, { what: "ids", perPage: 2, maxPages: 10 }),
    ).rejects.toMatchObject({
      message:
        "The service answered the request for page 2 of ids with page 1 again: paging stopped after 2 ids.",
    });
    expect(asked).toEqual([1, 2]);
  });

  it("reads on through pages that differ, and ends on a short page sized by per_page", async () => {
    const pages = [[1, 2], [3, 4], [5]];
    await expect(
      collectPages(async (page) => ({ items: pages[page - 1] ?? [] }), {
        what: "ids",
        perPage: 2,
        maxPages: 10,
      }),
    ).resolves.toEqual({ items: [1, 2, 3, 4, 5], pages: 3, end: "short_page" });
    // The service says it used 3 per page: a page of 3 is full, a page of 2 is the last.
    const served = [
      [1, 2, 3],
      [4, 5],
    ];
    await expect(
      collectPages(async (page) => ({ items: served[page - 1] ?? [], pagination: { per_page: 3 } }), {
        what: "ids",
        perPage: 2,
        maxPages: 10,
      }),
    ).resolves.toEqual({ items: [1, 2, 3, 4, 5], pages: 2, end: "short_page" });
  });

  it("ends on an empty page, counting it as a request", async () => {
    await expect(
      collectPages(async (page) => ({ items: page === 1 ? [1, 2] : [] }), {
        what: "ids",
        perPage: 2,
        maxPages: 10,
      }),
    ).resolves.toEqual({ items: [1, 2], pages: 2, end: "empty_page" });
  });

  it("reads exactly maxPages full pages that end at total_pages", async () => {
    const asked: number[] = [];
    await expect(
      collectPages(
        async (page) => {
          asked.push(page);
          return { items: [page], pagination: { current_page: page, total_pages: 3 } };
        },
        { what: "ids", perPage: 1, maxPages: 3 },
      ),
    ).resolves.toEqual({ items: [1, 2, 3], pages: 3, end: "last_page" });
    expect(asked).toEqual([1, 2, 3]);
  });

  it("fails at exactly maxPages full pages, without a request more", async () => {
    const asked: number[] = [];
    await expect(
      collectPages(
        async (page) => {
          asked.push(page);
          return { items: [page * 10, page * 10 + 1] };
        },
        { what: "ids", perPage: 2, maxPages: 3 },
      ),
    ).rejects.toMatchObject({
      message:
        "The service kept sending full pages of ids: paging stopped at 3 pages (6 ids) without reaching the end.",
    });
    expect(asked).toEqual([1, 2, 3]);
  });

  it("stops as soon as exactly the items wanted are in hand", async () => {
    const asked: number[] = [];
    await expect(
      collectPages(
        async (page) => {
          asked.push(page);
          return { items: [page * 10, page * 10 + 1] };
        },
        { what: "ids", perPage: 2, maxItems: 4, maxPages: 10 },
      ),
    ).resolves.toEqual({ items: [10, 11, 20, 21], pages: 2, end: "enough" });
    expect(asked).toEqual([1, 2]);
  });

  it("ignores a pagination of zeros, as of no pagination at all", async () => {
    const pages = [[1, 2], [3]];
    await expect(
      collectPages(
        async (page) => ({
          items: pages[page - 1] ?? [],
          pagination: { current_page: 0, total_pages: 0, per_page: 0 },
        }),
        { what: "ids", perPage: 2, maxPages: 10 },
      ),
    ).resolves.toEqual({ items: [1, 2, 3], pages: 2, end: "short_page" });
  });
});
