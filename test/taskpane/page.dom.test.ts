/**
 * @jest-environment ./test/taskpane/support/jsdomWithFetch.ts
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Credentials } from "../../src/api/tokens";
import { Session } from "../../src/session/session";
import { DownloadBlockedError } from "../../src/taskpane/downloadBlockedError";
import { element, StatusLine } from "../../src/taskpane/dom";
import { prepareExportFile, type LoadResult, type PreparedExport } from "../../src/taskpane/jobLoader";
import type { BatchJob, JobsController } from "../../src/taskpane/jobsController";
import { wireJobsPanel } from "../../src/taskpane/jobsPanel";
import { openCredentialVault, type CredentialVault } from "../../src/taskpane/secretVault";
import { MemoryStorage, SettingsStore } from "../../src/taskpane/settingsStore";
import { SignInController } from "../../src/taskpane/signInController";
import { readSignInForm, wireSignInPanel } from "../../src/taskpane/signInPanel";
import { ConnectionCheckController } from "../../src/taskpane/connectionCheckController";
import { wireConnectionPanel } from "../../src/taskpane/connectionPanel";
import { outsideExcel } from "../../src/taskpane/excelRunner";
import { wireInsertPanel } from "../../src/taskpane/insert/insertPanel";

const PAGE = readFileSync(join(__dirname, "../../src/taskpane/taskpane.html"), "utf8");
const SERVICE = "http://127.0.0.1:4010";
const SECRET = "page-test-secret";

function loadPage(): void {
  const body = /<body>([\s\S]*)<\/body>/.exec(PAGE)?.[1] ?? "";
  document.body.innerHTML = body;
}

function flush(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** The service as far as signing in needs it: the token endpoint and the account list. */
const fakeService: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  if (request.url === `${SERVICE}/oauth/token`) {
    const form = new URLSearchParams(await request.text());
    return form.get("client_secret") === SECRET
      ? json({ access_token: "t-1", token_type: "Bearer", expires_in: 7200 })
      : json({ error: "invalid_client" }, 401);
  }
  if (request.url.startsWith(`${SERVICE}/v1/accounts`))
    return json({
      data: [
        { id: 100, name: "Shared Portfolio" },
        { id: 102, name: "Pro Residential" },
      ],
      pagination: { page: 1, per_page: 100, total_pages: 1, total_count: 2 },
    });
  return json({ error: "Not Found" }, 404);
};

/** jsdom's Blob has no arrayBuffer(); its FileReader reads one. */
function blobBytes(blob: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

/** A vault that holds in memory what it is given (its encryption has its own tests). */
function memoryVault(): CredentialVault {
  let kept: Credentials | undefined;
  return {
    keep: async (credentials) => void (kept = credentials),
    recall: async () => kept,
    forget: async () => void (kept = undefined),
  };
}

describe("taskpane.html", () => {
  const doc = new DOMParser().parseFromString(PAGE, "text/html");

  it("labels every control and names every button", () => {
    for (const control of doc.querySelectorAll("input, select, textarea")) {
      const labelled =
        doc.querySelector(`label[for="${control.id}"]`) !== null || control.hasAttribute("aria-label");
      expect(`${control.id}: ${labelled}`).toBe(`${control.id}: true`);
    }
    for (const button of doc.querySelectorAll("button")) expect(button.textContent?.trim()).not.toBe("");
  });

  it("has unique ids, no inline scripts, styles or handlers", () => {
    const ids = [...doc.querySelectorAll("[id]")].map((node) => node.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const script of doc.querySelectorAll("script")) {
      expect(script.getAttribute("src")).toBeTruthy();
      expect(script.textContent?.trim()).toBe("");
    }
    expect(doc.querySelectorAll("style, [style]")).toHaveLength(0);
    const handlers = [...doc.querySelectorAll("*")].flatMap((node) =>
      [...node.attributes].filter((attribute) => attribute.name.startsWith("on")).map((a) => a.name),
    );
    expect(handlers).toEqual([]);
  });
});

describe("the sign-in section", () => {
  let session: Session;
  let storage: MemoryStorage;
  let status: StatusLine;

  beforeEach(() => {
    loadPage();
    session = new Session(fakeService);
    storage = new MemoryStorage();
    status = new StatusLine(element("status"));
    const settings = new SettingsStore(storage);
    const controller = new SignInController({ session, settings, vault: memoryVault() });
    wireSignInPanel({ session, controller, settings, status });
  });

  const submit = async () => {
    element<HTMLFormElement>("sign-in-form").dispatchEvent(new Event("submit", { cancelable: true }));
    for (let i = 0; i < 20 && element<HTMLButtonElement>("sign-in-button").disabled; i++) await flush();
  };

  it("starts with the sandbox settings and the client fields; the token field when chosen", () => {
    expect(element<HTMLInputElement>("service-url").value).toBe(SERVICE);
    expect(element("client-fields").hidden).toBe(false);
    expect(element("manual-fields").hidden).toBe(true);

    // As the radio group does on a click: one radio checked, the others not, and a change that bubbles.
    element<HTMLInputElement>("method-client").checked = false;
    element<HTMLInputElement>("method-manual").checked = true;
    element("method-manual").dispatchEvent(new Event("change", { bubbles: true }));

    expect(element("client-fields").hidden).toBe(true);
    expect(element("manual-fields").hidden).toBe(false);
  });

  it("signs in: shows who and the account picker, and clears the secret from the form", async () => {
    element<HTMLInputElement>("client-id").value = "demo-pro";
    element<HTMLInputElement>("client-secret").value = SECRET;

    await submit();

    expect(element("sign-in-section").hidden).toBe(true);
    expect(element("signed-in-section").hidden).toBe(false);
    expect(element("signed-in-identity").textContent).toBe("demo-pro");
    // The service names no plan: the Account tab says so until the sign-in's answers show it.
    expect(element("signed-in-plan").textContent).toMatch(/^Plan: not known yet\./);
    expect([...element<HTMLSelectElement>("account-picker").options].map((o) => o.value)).toEqual([
      "100",
      "102",
    ]);
    expect(element("status").textContent).toBe("Signed in. RENT formulas use Shared Portfolio (100).");
    expect(element<HTMLInputElement>("client-secret").value).toBe("");
    expect(JSON.stringify([storage.getItem("rent-market.settings")])).not.toContain(SECRET);

    element<HTMLSelectElement>("account-picker").value = "102";
    element("account-picker").dispatchEvent(new Event("change"));
    await flush();
    expect(session.current?.accountId).toBe(102);

    element("sign-out-button").click();
    await flush();
    expect(element("sign-in-section").hidden).toBe(false);
    expect(session.current).toBeUndefined();
  });

  it("chosen account: a sign-out while the cells recalculate leaves the sign-out said and nothing thrown", async () => {
    let recalculated: () => void = () => undefined;
    const settings = new SettingsStore(storage);
    const controller = new SignInController({
      session,
      settings,
      vault: memoryVault(),
      afterAccountChange: () => new Promise<void>((resolve) => (recalculated = resolve)),
    });
    loadPage();
    wireSignInPanel({ session, controller, settings, status: new StatusLine(element("status")) });
    const unhandled: unknown[] = [];
    const noteUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", noteUnhandled);
    try {
      element<HTMLInputElement>("client-id").value = "demo-pro";
      element<HTMLInputElement>("client-secret").value = SECRET;
      await submit();
      element<HTMLSelectElement>("account-picker").value = "102";
      element("account-picker").dispatchEvent(new Event("change"));
      await flush();
      element("sign-out-button").click();
      for (let i = 0; i < 20 && element<HTMLButtonElement>("sign-out-button").disabled; i++) await flush();
      recalculated();
      for (let i = 0; i < 5; i++) await flush();
      expect(unhandled).toEqual([]);
      expect(element("status").textContent).toMatch(/^Signed out\./);
    } finally {
      process.off("unhandledRejection", noteUnhandled);
    }
  });

  it("says what choosing another account recalculates and costs, and changes it only once confirmed", async () => {
    let recalculations = 0;
    const settings = new SettingsStore(storage);
    const controller = new SignInController({
      session,
      settings,
      vault: memoryVault(),
      afterAccountChange: async () => void (recalculations += 1),
      accountChangeFormulas: async () => [
        { formula: '=RENT.PROPERTY(A2:A251, "asking_rent")', rowCount: 250, columnCount: 1 },
        { formula: '=RENT.HISTORY(A2:A3, "avg_rent", D1, D2)', rowCount: 130, columnCount: 3 },
      ],
    });
    loadPage();
    wireSignInPanel({ session, controller, settings, status: new StatusLine(element("status")) });
    element<HTMLInputElement>("client-id").value = "demo-pro";
    element<HTMLInputElement>("client-secret").value = SECRET;
    await submit();
    const choose = async (accountId: string) => {
      element<HTMLSelectElement>("account-picker").value = accountId;
      element("account-picker").dispatchEvent(new Event("change"));
      for (let i = 0; i < 5; i++) await flush();
    };

    await choose("102");
    expect(element("status").textContent).toBe(
      "Choosing Pro Residential (102) recalculates 2 RENT formulas for it: up to 4 requests (the service " +
        "allows 100 requests per 5 minutes), up to 250 properties of the bulk export quota and at least 1 " +
        "export job (RENT.HISTORY: one per 1,000 properties and 400 days of a formula, each taking minutes and " +
        "looking at the service while it runs). Answers still in the cache cost nothing.",
    );
    expect(element("account-confirm").hidden).toBe(false);
    expect([session.current?.accountId, element<HTMLSelectElement>("account-picker").value]).toEqual([
      100,
      "100",
    ]);
    expect(recalculations).toBe(0);

    element("account-cancel-button").click();
    expect(element("status").textContent).toBe(
      "Account unchanged: RENT formulas still use Shared Portfolio (100).",
    );
    expect([session.current?.accountId, recalculations]).toEqual([100, 0]);

    await choose("102");
    element("account-confirm-button").click();
    for (let i = 0; i < 5; i++) await flush();
    expect([session.current?.accountId, recalculations]).toEqual([102, 1]);
    expect(element("account-confirm").hidden).toBe(true);
    expect(element("status").textContent).toBe("RENT formulas now use Pro Residential (102).");
  });

  it("shows a refused sign-in as an error in words, and forgets the typed secret", async () => {
    element<HTMLInputElement>("client-id").value = "demo-pro";
    element<HTMLInputElement>("client-secret").value = "wrong";

    await submit();

    expect(element("status").classList.contains("error")).toBe(true);
    expect(element("status").textContent).toMatch(/client id or secret was not accepted/i);
    expect(element<HTMLInputElement>("client-secret").value).toBe("");
    expect(element("signed-in-section").hidden).toBe(true);
  });
});

describe("Check connection", () => {
  it("says its limit first, then lists each endpoint family as it answers, and sums up on the status line", async () => {
    loadPage();
    const session = new Session(fakeService);
    const status = new StatusLine(element("status"));
    const settings = new SettingsStore(new MemoryStorage());
    wireSignInPanel({
      session,
      controller: new SignInController({ session, settings, vault: memoryVault() }),
      settings,
      status,
    });
    const sent: string[] = [];
    const recording: typeof fetch = (input, init) => {
      sent.push(new Request(input, init).url);
      return fakeService(input, init);
    };
    wireConnectionPanel(new ConnectionCheckController(session, recording), readSignInForm, status);
    element<HTMLInputElement>("client-id").value = "demo-pro";
    element<HTMLInputElement>("client-secret").value = SECRET;

    element("check-connection-button").click();
    const lines = () => [...element("connection-report").children].map((item) => item.textContent ?? "");
    expect(lines()).toEqual([
      `Checking ${SERVICE}: one small request per endpoint family, at most 15 requests in all.`,
    ]);
    for (let i = 0; i < 50 && element<HTMLButtonElement>("check-connection-button").disabled; i++)
      await flush();

    // The stand-in service knows only the token and the accounts: the other families are named as failing.
    expect(lines()[1]).toMatch(/^ok 200 +Token \(POST \/oauth\/token\)/);
    expect(lines()[2]).toMatch(/^ok 200 +Accounts \(GET \/v1\/accounts\?per_page=1\)/);
    expect(lines()).toContainEqual(
      expect.stringMatching(
        /^FAILED 404 +Market survey \(GET \/v1\/comp_sets\/\d+\/market_survey\) - the service said: "Not Found"/,
      ),
    );
    expect(lines().at(-2)).toBe(`${sent.length} of at most 15 requests sent to ${SERVICE}.`);
    expect(sent.length).toBeLessThanOrEqual(15);
    expect(element("status").textContent).toMatch(
      /^Connection check: Market survey, .* failed; the list below says why\.$/,
    );
    expect(document.body.textContent).not.toContain(SECRET);
    // Checking is not signing in: the typed secret stays for the sign-in that may follow.
    expect(session.current).toBeUndefined();
    expect(element<HTMLInputElement>("client-secret").value).toBe(SECRET);
  });
});

describe("signing in where the runtime has no IndexedDB", () => {
  it("signs in with Remember ticked and says that the secret could not be kept", async () => {
    loadPage();
    expect(typeof indexedDB).toBe("undefined");
    const session = new Session(fakeService);
    const settings = new SettingsStore(new MemoryStorage());
    const controller = new SignInController({ session, settings, vault: openCredentialVault() });
    wireSignInPanel({ session, controller, settings, status: new StatusLine(element("status")) });
    element<HTMLInputElement>("client-id").value = "demo-pro";
    element<HTMLInputElement>("client-secret").value = SECRET;
    element<HTMLInputElement>("remember-secret").checked = true;

    element<HTMLFormElement>("sign-in-form").dispatchEvent(new Event("submit", { cancelable: true }));
    for (let i = 0; i < 20 && element<HTMLButtonElement>("sign-in-button").disabled; i++) await flush();

    expect(session.current?.identity).toBe("demo-pro");
    expect(element("signed-in-section").hidden).toBe(false);
    expect(element("status").textContent).toMatch(/secret cannot be remembered/);
  });
});

describe("the bulk exports section", () => {
  const job = (id: string, status: BatchJob["status"]): BatchJob => ({
    job_id: id,
    report_type: "units",
    output_format: "csv",
    property_ids: [100001],
    start_date: "2026-01-01",
    end_date: "2026-01-31",
    status,
    callback_url: null,
    error_message: null,
    created_at: "2026-02-01T00:00:00Z",
    updated_at: "2026-02-01T00:00:00Z",
  });

  it("lists jobs with their actions and, when the download is refused, offers the link and Load from file", async () => {
    loadPage();
    const link = "http://downloads.example/export.csv?signature=abc";
    let listed = 0;
    const controller = {
      list: async () => {
        listed += 1;
        return [
          job("aaaa1111-0000-4000-8000-000000000001", "succeeded"),
          job("bbbb2222-0000-4000-8000-000000000002", "failed"),
        ];
      },
      watch: async (id: string) => job(id, "succeeded"),
      prepare: async () => {
        throw new DownloadBlockedError(link);
      },
    } as unknown as JobsController;
    const session = new Session(fakeService);
    wireJobsPanel(session, controller, new StatusLine(element("status")));
    await session.signIn(
      { serviceUrl: SERVICE, tokenUrl: `${SERVICE}/oauth/token` },
      {
        kind: "client",
        clientId: "demo-pro",
        clientSecret: SECRET,
      },
    );
    await flush();
    // Signing in costs no request for the list; it comes when asked for.
    expect(listed).toBe(0);
    expect(element("jobs-list").children).toHaveLength(0);
    element("jobs-reload-button").click();
    await flush();

    expect(listed).toBe(1);
    expect(element("jobs-section").hidden).toBe(false);
    expect([...element("jobs-list").children].map((item) => item.id)).toEqual([
      "job-aaaa1111-0000-4000-8000-000000000001",
      "job-bbbb2222-0000-4000-8000-000000000002",
    ]);
    expect(document.getElementById("job-save-aaaa1111-0000-4000-8000-000000000001")).not.toBeNull();
    expect(document.getElementById("job-load-bbbb2222-0000-4000-8000-000000000002")).toBeNull();

    element("job-load-aaaa1111-0000-4000-8000-000000000001").click();
    await flush();
    await flush();

    expect(element("download-fallback").hidden).toBe(false);
    expect(element("open-download-link-button").hidden).toBe(false);
    expect(element("download-fallback-message").textContent).toMatch(/Open download link.*Load from file/);
    expect(element("job-progress-area").hidden).toBe(true);
  });
  it("submits the form, shows the job as running, and redraws it when the poll sees it ready", async () => {
    loadPage();
    const id = "cccc3333-0000-4000-8000-000000000003";
    let finish: (job: BatchJob) => void = () => undefined;
    const submitted: unknown[] = [];
    const controller = {
      list: async () => [],
      submit: async (form: unknown) => {
        submitted.push(form);
        return job(id, "submitted");
      },
      watch: (_id: string, options: { onUpdate: (job: BatchJob) => void }) =>
        new Promise<BatchJob>((resolve) => {
          finish = (done) => {
            options.onUpdate(done);
            resolve(done);
          };
        }),
    } as unknown as JobsController;
    const session = new Session(fakeService);
    wireJobsPanel(session, controller, new StatusLine(element("status")));
    await session.signIn(
      { serviceUrl: SERVICE, tokenUrl: `${SERVICE}/oauth/token` },
      { kind: "client", clientId: "demo-pro", clientSecret: SECRET },
    );
    element<HTMLTextAreaElement>("job-property-ids").value = "100001";

    element("job-form").dispatchEvent(new Event("submit", { cancelable: true }));
    await flush();

    expect(submitted).toEqual([expect.objectContaining({ propertyIds: "100001", reportType: "property" })]);
    expect(element(`job-${id}`).dataset.status).toBe("submitted");
    expect(document.getElementById(`job-cancel-${id}`)).not.toBeNull();

    finish(job(id, "succeeded"));
    await flush();

    expect(element(`job-${id}`).dataset.status).toBe("succeeded");
    expect(document.getElementById(`job-load-${id}`)).not.toBeNull();
    expect(element("status").textContent).toMatch(/is ready to load/);
  });

  it("says before writing that a file is too long for one sheet, and splits it or saves it as the person chooses", async () => {
    loadPage();
    const id = "dddd4444-0000-4000-8000-000000000004";
    const csv = ["id,avg_rent", ...Array.from({ length: 10 }, (_, i) => `${100_001 + i},${1_500 + i}`)].join(
      "\n",
    );
    const bytes = new TextEncoder().encode(csv);
    // A 4-row grid (header + 3 rows) stands in for Excel's 1,048,576: the 10 rows need 4 sheets.
    const prepared = await prepareExportFile(
      bytes,
      "csv",
      { sheetName: "Units export dddd4444", fileName: "units.csv" },
      4,
    );
    const writes: { prepared: PreparedExport; split: boolean | undefined }[] = [];
    const controller = {
      list: async () => [job(id, "succeeded")],
      watch: async () => job(id, "succeeded"),
      prepare: async () => prepared,
      write: async (what: PreparedExport, options: { split?: boolean }): Promise<LoadResult> => {
        writes.push({ prepared: what, split: options.split });
        // The first split is cancelled part-way (the writer then removes what it wrote).
        if (writes.length === 1) throw new DOMException("The write was cancelled.", "AbortError");
        const sheetNames = [
          "Units export dddd4444",
          "Units export dddd4444 (2)",
          "Units export dddd4444 (3)",
          "Units export dddd4444 (4)",
        ];
        return { sheetName: sheetNames[0] ?? "", sheetNames, rowsWritten: 10 };
      },
    } as unknown as JobsController;
    const saved: { name: string; blob: Blob }[] = [];
    let lastBlob: Blob | undefined;
    URL.createObjectURL = (blob: Blob) => {
      lastBlob = blob;
      return "blob:export";
    };
    URL.revokeObjectURL = () => undefined;
    const click = jest.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      if (lastBlob) saved.push({ name: this.download, blob: lastBlob });
    });
    const session = new Session(fakeService);
    wireJobsPanel(session, controller, new StatusLine(element("status")));
    await session.signIn(
      { serviceUrl: SERVICE, tokenUrl: `${SERVICE}/oauth/token` },
      { kind: "client", clientId: "demo-pro", clientSecret: SECRET },
    );
    element("jobs-reload-button").click();
    await flush();

    element(`job-load-${id}`).click();
    for (let i = 0; i < 5; i++) await flush();

    expect(writes).toEqual([]);
    expect(element("oversize-offer").hidden).toBe(false);
    expect(element("oversize-message").textContent).toBe(
      "units.csv has 10 rows, more than an Excel worksheet holds (3 under the header). Nothing was written. Split it across 4 sheets, or save the file.",
    );
    expect(element("oversize-split-button").textContent).toBe("Split across 4 sheets");
    expect(element("status").textContent).toMatch(/units\.csv is too long for one sheet/);

    element("oversize-save-button").click();
    await flush();
    expect(saved.map((file) => file.name)).toEqual(["units.csv"]);
    expect(new Uint8Array(await blobBytes(saved[0]?.blob as Blob))).toEqual(bytes);
    expect(element("oversize-offer").hidden).toBe(true);
    expect(writes).toEqual([]);

    element(`job-load-${id}`).click();
    for (let i = 0; i < 5; i++) await flush();
    element("oversize-split-button").click();
    for (let i = 0; i < 5; i++) await flush();

    expect(element("status").textContent).toBe("Cancelled.");
    expect(element("oversize-offer").hidden).toBe(false);

    element("oversize-split-button").click();
    for (let i = 0; i < 5; i++) await flush();

    expect(writes).toEqual([
      { prepared, split: true },
      { prepared, split: true },
    ]);
    expect(element("oversize-offer").hidden).toBe(true);
    expect(element("status").textContent).toBe(
      'Wrote 10 rows across 4 sheets, "Units export dddd4444" to "Units export dddd4444 (4)", each with the header row.',
    );
    click.mockRestore();
  });
});

describe("the Insert list", () => {
  it("shows each field's readable name with its id beside it, and the id is what a tick adds to the formula", () => {
    loadPage();
    wireInsertPanel(new Session(fakeService), outsideExcel, new StatusLine(element("status")));
    const row = element("insert-field-rent_avg_t30").closest("fluent-field") as HTMLElement;
    const label = row.querySelector("label") as HTMLElement;
    expect(label.firstChild?.textContent).toBe("Asking rent, avg 30 d ");
    expect(label.querySelector("code.field-id")?.textContent).toBe("rent_avg_t30");
    expect(element<HTMLInputElement>("insert-field-rent_avg_t30").value).toBe("rent_avg_t30");
    const texts = [...element("insert-fields").querySelectorAll("label")].map(
      (item) => item.textContent ?? "",
    );
    expect(texts.filter((text) => !text.includes(" ")).length).toBe(0);
  });
});
