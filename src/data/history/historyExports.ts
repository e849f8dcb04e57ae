import { CANCEL_JOB, JOB, SUBMIT_JOB } from "../endpoints";
import { MAX_JOB_PROPERTY_IDS, MAX_JOB_RANGE_DAYS } from "../../api/contractLimits";
import { ApiError } from "../../api/errors";
import { percentsAsFractions } from "../../tables/exportPercents";
import { EXPORT_SUBMITTING, exportRunning } from "../../tables/exportWaitTexts";
import { parseExportFile } from "../../formats/exportFile";
import { abortableSleep, untilAborted, type Sleep } from "../abortableSleep";
import type { AnswerTrail } from "../answerTrail";
import { requestKey } from "../cacheKey";
import type { DataLayer } from "../dataLayer";
import type { FollowedExportJob } from "../exportJobsUnderWay";
import type { AnswerSource } from "../fetched";
import { pollUntil } from "../pollUntil";
import type { CachedValue } from "../responseCache";
import { dayOfInstant, isoOfDay, splitRange, type DayRange } from "./historyDays";
import { expectedJobMs, waitInWords } from "./exportJobWait";

/** One property's row of the property export for one day, percents as fractions; null: the export had none. */
export type HistoryRow = Record<string, unknown>;

/** Per property, one entry per day of the range asked (index 0 = the first day). */
export type HistoryRows = Map<number, (HistoryRow | null)[]>;

export interface HistoryNeed extends DayRange {
  ids: readonly number[];
}

/** What a waiting cell shows. */
export interface HistoryProgress {
  /** Jobs this cell waits for. */
  jobs: number;
  /** "export running, about 4 min". */
  text: string;
}

export interface HistoryExportsOptions {
  now?: () => number;
  sleep?: Sleep;
  /** How long the first cell waits for others to join its job (all cells of a recalculation arrive within it). */
  batchWindowMs?: number;
  /** First look at a running job, growing by `factor` up to `maxDelayMs` (a live client looked every 20 s). */
  poll?: { initialDelayMs: number; maxDelayMs: number; factor: number };
  /**
   * A job still running after `boundFactor` times its expected time, and at least `boundMinimumMs`, is given up
   * (a live client capped its waits at 15 minutes; one live job never ended).
   */
  boundMinimumMs?: number;
  boundFactor?: number;
}

const DEFAULTS = {
  batchWindowMs: 50,
  poll: { initialDelayMs: 20_000, maxDelayMs: 60_000, factor: 1.5 },
  boundMinimumMs: 15 * 60_000,
  boundFactor: 3,
} as const;

/** One property's days of one month fetched so far, by ISO day: the row, or null where the export had none. */
type MonthEntry = Record<string, HistoryRow | null>;

/** The range's days as ISO dates. */
function isoDaysOf(range: DayRange): string[] {
  return Array.from({ length: range.last - range.first + 1 }, (_, index) => isoOfDay(range.first + index));
}

/** The months ("2026-01") a range touches. */
function monthsOf(range: DayRange): string[] {
  return [...new Set(isoDaysOf(range).map((iso) => iso.slice(0, 7)))];
}

/** A job submitted for RENT.HISTORY, kept in the cache so a reloaded pane follows it instead of submitting again. */
interface PendingJob extends DayRange {
  jobId: string;
  ids: number[];
  submittedAt: number;
}

/** A job this runtime follows: the cells waiting for it share it. */
interface FollowedJob {
  pending: PendingJob | undefined;
  piece: HistoryNeed;
  done: Promise<void>;
  listeners: Set<() => void>;
  /** The data layer's note of it, for the pane's progress. */
  underWay: FollowedExportJob;
}

/** The needs that arrived within one batch window, each with the way to hand it its jobs. */
interface Batch {
  needs: { need: HistoryNeed; resolve: (jobs: FollowedJob[]) => void; reject: (error: unknown) => void }[];
}

/** Where RENT.HISTORY's cached days and pending job are keyed: the operation that makes them. */
const ENDPOINT = SUBMIT_JOB.operation.path;
const REPORT = "property";

const minutes = (ms: number) => Math.max(1, Math.round(ms / 60_000));

function covers(job: DayRange & { ids: readonly number[] }, piece: HistoryNeed): boolean {
  if (piece.first < job.first || piece.last > job.last) return false;
  const ids = new Set(job.ids);
  return piece.ids.every((id) => ids.has(id));
}

/**
 * RENT.HISTORY's data: a property's export rows per day, from bulk export jobs. Every finished day is cached
 * for good, so a cell asks only for days it has never had. The needs of the cells that arrive within a short
 * window join one job per date range (ids united; split only by the contract's limits on ids and days per
 * job). A submitted job's id is stored at once, so a reloaded pane follows it rather than submitting again; a
 * job that outlives its bound is cancelled and fails its cells with the reason.
 */
export class HistoryExports {
  private readonly now: () => number;
  private readonly sleep: Sleep;
  private readonly settings: Required<Omit<HistoryExportsOptions, "now" | "sleep">>;
  private readonly followed = new Map<string, FollowedJob>();
  private saving: Promise<void> = Promise.resolve();
  private batch: Batch | undefined;

  constructor(
    private readonly data: DataLayer,
    private readonly caller: string,
    options: HistoryExportsOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.sleep = options.sleep ?? abortableSleep;
    this.settings = {
      batchWindowMs: options.batchWindowMs ?? DEFAULTS.batchWindowMs,
      poll: options.poll ?? DEFAULTS.poll,
      boundMinimumMs: options.boundMinimumMs ?? DEFAULTS.boundMinimumMs,
      boundFactor: options.boundFactor ?? DEFAULTS.boundFactor,
    };
  }

  /** The first day that has not finished yet: history ends the day before. */
  today(): number {
    return dayOfInstant(this.now());
  }

  /** A property's month: one cache entry holding the days of it fetched so far. */
  private monthKey(id: number, month: string): string {
    return requestKey({
      kind: "history",
      caller: this.caller,
      accountId: undefined,
      endpoint: ENDPOINT,
      params: { report_type: REPORT, id, month },
    });
  }

  private get pendingKey(): string {
    return requestKey({
      kind: "history_job",
      caller: this.caller,
      accountId: undefined,
      endpoint: ENDPOINT,
      params: {},
    });
  }

  /**
   * The rows when memory holds every day of every property (a recalculation): no wait, no request. `trail` hears
   * each property's months as answers from the cache (the cell's as-of).
   */
  known(need: HistoryNeed, trail?: AnswerTrail): HistoryRows | undefined {
    const months = new Map<string, CachedValue<MonthEntry> | undefined>();
    for (const id of need.ids)
      for (const month of monthsOf(need)) {
        const key = this.monthKey(id, month);
        months.set(key, this.data.cache.peekFresh<MonthEntry>(key));
      }
    const rows = this.assemble(need, months, true);
    if (rows && trail) this.noteMonths(need, months, trail, new Set());
    return rows;
  }

  /**
   * The rows of every property and day of the need: from the cache, and for the days it lacks from the export
   * jobs this need joins. `onProgress` hears the wait while a job runs; `signal` ends this caller's wait only;
   * `trail` hears each property's months, from a job (the service) or the cache.
   */
  async rows(
    need: HistoryNeed,
    options: {
      signal?: AbortSignal;
      onProgress?: (progress: HistoryProgress) => void;
      trail?: AnswerTrail;
    } = {},
  ): Promise<HistoryRows> {
    const missing = this.missing(need, await this.months(need));
    if (missing) {
      const jobs = await this.join(missing);
      const report = () => options.onProgress?.(this.progressOf(jobs));
      for (const job of jobs) job.listeners.add(report);
      report();
      try {
        await untilAborted(Promise.all(jobs.map((job) => job.done)), options.signal);
      } finally {
        for (const job of jobs) job.listeners.delete(report);
      }
    }
    const months = await this.months(need);
    if (options.trail) {
      const fetched = new Set(
        missing ? missing.ids.flatMap((id) => [...this.monthKeysOf(id, missing).values()]) : [],
      );
      this.noteMonths(need, months, options.trail, fetched);
    }
    return this.assemble(need, months, false) as HistoryRows;
  }

  /**
   * Each property's month as one answer of the trail: when it was stored, and the first and last day of the need
   * it holds a row for (the days the export's figures describe). `fetched`: months a job of this call brought.
   */
  private noteMonths(
    need: HistoryNeed,
    months: Map<string, CachedValue<MonthEntry> | undefined>,
    trail: AnswerTrail,
    fetched: Set<string>,
  ): void {
    const isoDays = isoDaysOf(need);
    for (const id of need.ids)
      for (const [month, key] of this.monthKeysOf(id, need)) {
        const entry = months.get(key);
        if (!entry) continue;
        const days = isoDays.filter((iso) => iso.startsWith(month) && entry.value[iso]);
        const source: AnswerSource = fetched.has(key) ? "network" : "cache";
        trail.note(key, {
          kind: "history",
          source,
          storedAt: entry.storedAt,
          freshUntil: this.data.cache.freshUntil(key, entry.storedAt),
          dataDate: days[0],
          lastDataDate: days[days.length - 1],
        });
      }
  }

  /** A property's cache key per month of the range. */
  private monthKeysOf(id: number, range: DayRange): Map<string, string> {
    return new Map(monthsOf(range).map((month) => [month, this.monthKey(id, month)]));
  }

  /** The stored months of the need's properties, by key (absent: never fetched). */
  private async months(need: HistoryNeed): Promise<Map<string, CachedValue<MonthEntry> | undefined>> {
    const keys = need.ids.flatMap((id) => monthsOf(need).map((month) => this.monthKey(id, month)));
    const found = await this.data.cache.getMany<MonthEntry>(keys);
    return new Map(keys.map((key) => [key, found.get(key)]));
  }

  /** Per property, the day's row or null; a day never fetched is null, or makes it undefined when `complete`. */
  private assemble(
    need: HistoryNeed,
    months: Map<string, CachedValue<MonthEntry> | undefined>,
    complete: boolean,
  ): HistoryRows | undefined {
    const rows: HistoryRows = new Map();
    const isoDays = isoDaysOf(need);
    for (const id of need.ids) {
      const keys = this.monthKeysOf(id, need);
      const days: (HistoryRow | null)[] = [];
      for (const iso of isoDays) {
        const row = months.get(keys.get(iso.slice(0, 7)) as string)?.value[iso];
        if (row === undefined && complete) return undefined;
        days.push(row ?? null);
      }
      rows.set(id, days);
    }
    return rows;
  }

  /** The properties lacking a day, over the span from their first to their last missing day; undefined: none. */
  private missing(
    need: HistoryNeed,
    months: Map<string, CachedValue<MonthEntry> | undefined>,
  ): HistoryNeed | undefined {
    const ids: number[] = [];
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    const isoDays = isoDaysOf(need);
    for (const id of need.ids) {
      const keys = this.monthKeysOf(id, need);
      let lacking = false;
      isoDays.forEach((iso, index) => {
        if (months.get(keys.get(iso.slice(0, 7)) as string)?.value[iso] !== undefined) return;
        lacking = true;
        first = Math.min(first, need.first + index);
        last = Math.max(last, need.first + index);
      });
      if (lacking) ids.push(id);
    }
    return ids.length === 0 ? undefined : { ids, first, last };
  }

  /** Joins the batch of needs of this moment; resolves with the jobs that will bring this need's days. */
  private join(need: HistoryNeed): Promise<FollowedJob[]> {
    return new Promise((resolve, reject) => {
      if (!this.batch) {
        const batch: Batch = { needs: [] };
        this.batch = batch;
        setTimeout(() => {
          this.batch = undefined;
          // A batch that cannot even be sorted into jobs fails its cells rather than leaving them waiting.
          this.dispatch(batch.needs).catch((error: unknown) => {
            for (const waiting of batch.needs) waiting.reject(error);
          });
        }, this.settings.batchWindowMs);
      }
      this.batch.needs.push({ need, resolve, reject });
    });
  }

  /** One job per date range, ids united, cut only where the contract's limits require. */
  private async dispatch(needs: Batch["needs"]): Promise<void> {
    const byRange = new Map<string, { range: DayRange; ids: Set<number> }>();
    for (const { need } of needs) {
      const key = `${need.first}:${need.last}`;
      const group = byRange.get(key) ?? { range: { first: need.first, last: need.last }, ids: new Set() };
      for (const id of need.ids) group.ids.add(id);
      byRange.set(key, group);
    }
    const pending = await this.pendingJobs();
    const jobs: FollowedJob[] = [];
    for (const { range, ids } of byRange.values()) {
      const sorted = [...ids].sort((a, b) => a - b);
      for (const days of splitRange(range, MAX_JOB_RANGE_DAYS))
        for (let start = 0; start < sorted.length; start += MAX_JOB_PROPERTY_IDS)
          jobs.push(
            this.follow({ ...days, ids: sorted.slice(start, start + MAX_JOB_PROPERTY_IDS) }, pending),
          );
    }
    for (const { need, resolve } of needs)
      resolve(
        jobs.filter(
          (job) =>
            job.piece.first <= need.last &&
            job.piece.last >= need.first &&
            job.piece.ids.some((id) => need.ids.includes(id)),
        ),
      );
  }

  /** The job that brings this piece: one followed already, one a reloaded pane left running, or a new one. */
  private follow(piece: HistoryNeed, pending: PendingJob[]): FollowedJob {
    for (const job of this.followed.values()) if (covers(job.piece, piece)) return job;
    const left = pending.find((job) => covers(job, piece) && !this.followed.has(job.jobId));
    const followed: FollowedJob = {
      pending: left,
      piece: left ? { ids: left.ids, first: left.first, last: left.last } : piece,
      listeners: new Set(),
      done: Promise.resolve(),
      underWay: this.data.exportJobs.follow(),
    };
    const key = left?.jobId ?? `new:${piece.first}:${piece.last}:${piece.ids.join(",")}`;
    this.followed.set(key, followed);
    followed.done = this.run(followed).finally(() => {
      this.followed.delete(key);
      followed.underWay.end();
    });
    // Every cell waiting on it hears the failure; nobody waiting is no unhandled rejection.
    followed.done.catch(() => undefined);
    return followed;
  }

  private notify(job: FollowedJob): void {
    for (const listener of job.listeners) listener();
  }

  private progressOf(jobs: FollowedJob[]): HistoryProgress {
    const submitted = jobs.flatMap((job) => (job.pending ? [job.pending] : []));
    if (submitted.length < jobs.length) return { jobs: jobs.length, text: EXPORT_SUBMITTING };
    const now = this.now();
    const remaining = Math.max(...submitted.map((job) => job.submittedAt + this.expectedMs(job) - now));
    return { jobs: jobs.length, text: exportRunning(waitInWords(remaining)) };
  }

  private expectedMs(job: HistoryNeed): number {
    return expectedJobMs(job.ids.length, job.last - job.first + 1);
  }

  private boundMs(job: HistoryNeed): number {
    return Math.max(this.settings.boundMinimumMs, this.settings.boundFactor * this.expectedMs(job));
  }

  private async run(job: FollowedJob): Promise<void> {
    const justSubmitted = !job.pending;
    if (!job.pending) {
      const submitted = await this.data.send(SUBMIT_JOB, {
        report_type: REPORT,
        output_format: "csv",
        start_date: isoOfDay(job.piece.first),
        end_date: isoOfDay(job.piece.last),
        property_ids: [...job.piece.ids],
      });
      job.pending = {
        ...job.piece,
        ids: [...job.piece.ids],
        jobId: submitted.job_id,
        submittedAt: this.now(),
      };
      await this.savePending((jobs) => [...jobs, job.pending as PendingJob]);
      this.notify(job);
    }
    const pending = job.pending;
    job.underWay.expectEndAt(pending.submittedAt + this.expectedMs(pending));
    const deadline = pending.submittedAt + this.boundMs(pending);
    let looks = 0;
    const state = await pollUntil(
      // The first look at a job just submitted is its submission: no request.
      async (signal) =>
        looks++ === 0 && justSubmitted
          ? { status: "submitted" as const, error_message: null }
          : await this.data.send(JOB, pending.jobId, signal),
      (seen) => seen.status !== "submitted" || this.now() >= deadline,
      // Sign-out ends the polls at once, rather than a poll waking minutes later only to be refused.
      {
        ...this.settings.poll,
        sleep: this.sleep,
        signal: this.data.closed,
        onUpdate: () => this.notify(job),
      },
    );
    const forget = () => this.savePending((jobs) => jobs.filter((other) => other.jobId !== pending.jobId));
    const name = `Export job ${pending.jobId.slice(0, 8)}`;
    if (state.status === "submitted") {
      // Given up: tell the service too, so it does not go on spending for nobody (best effort).
      await this.data.send(CANCEL_JOB, pending.jobId).catch(() => undefined);
      await forget();
      throw new ApiError(
        "timeout",
        `${name} was still running after ${minutes(this.now() - pending.submittedAt)} min (expected about ` +
          `${minutes(this.expectedMs(pending))} min); the service may have stalled it, so it was cancelled. ` +
          "Recalculate to submit it again.",
      );
    }
    if (state.status !== "succeeded") {
      await forget();
      const reason = state.error_message ? `: ${state.error_message}` : "";
      throw new ApiError("server", `${name} ${state.status}${reason}. Recalculate to submit it again.`);
    }
    await this.store(pending, await this.data.jobResults(pending.jobId));
    await forget();
  }

  /**
   * Keeps every finished day of the job, a row or null for every property, so no day is asked for twice. Months
   * are merged with what they held, one store at a time (two jobs may bring days of the same month).
   */
  private store(job: PendingJob, file: ArrayBuffer): Promise<void> {
    const stored = this.saving.then(async () => {
      const parsed = await parseExportFile(file, "csv");
      const rows = percentsAsFractions(parsed.columns, parsed.rows);
      const dateAt = parsed.columns.indexOf("report_generation_date");
      const idAt = parsed.columns.indexOf("id");
      if (dateAt < 0 || idAt < 0)
        throw new ApiError(
          "unexpected_answer",
          "The export file has no report_generation_date or id column.",
        );
      const finished = { first: job.first, last: Math.min(job.last, this.today() - 1) };
      const months = await this.months({ ...finished, ids: job.ids });
      const merged = new Map<string, MonthEntry>();
      const keysById = new Map(job.ids.map((id) => [id, this.monthKeysOf(id, finished)]));
      const monthOf = (id: number, iso: string): MonthEntry | undefined => {
        const key = keysById.get(id)?.get(iso.slice(0, 7));
        if (key === undefined) return undefined;
        let month = merged.get(key);
        if (!month) merged.set(key, (month = { ...months.get(key)?.value }));
        return month;
      };
      // Every finished day of every property first: a day the file lacks is known to have no row.
      const isoDays = isoDaysOf(finished);
      for (const id of job.ids) for (const iso of isoDays) (monthOf(id, iso) as MonthEntry)[iso] = null;
      for (const row of rows) {
        const iso = String(row[dateAt]).slice(0, 10);
        const month = monthOf(Number(row[idAt]), iso);
        // A day outside the finished range has no month here (or no place in it): not kept.
        if (month && iso in month)
          month[iso] = Object.fromEntries(parsed.columns.map((name, index) => [name, row[index]]));
      }
      await this.data.cache.setMany([...merged].map(([key, value]) => ({ key, value })));
    });
    this.saving = stored.catch(() => undefined);
    return stored;
  }

  /** The jobs a pane left running, still within their bound. */
  private async pendingJobs(): Promise<PendingJob[]> {
    const stored = (await this.data.cache.get<PendingJob[]>(this.pendingKey))?.value ?? [];
    const now = this.now();
    return stored.filter((job) => now < job.submittedAt + this.boundMs(job));
  }

  /** Changes the stored list one change at a time, so two jobs ending together both count. */
  private savePending(change: (jobs: PendingJob[]) => PendingJob[]): Promise<void> {
    const saved = this.saving.then(async () => {
      const jobs = change(await this.pendingJobs());
      await this.data.cache.setMany([{ key: this.pendingKey, value: jobs }]);
    });
    this.saving = saved.catch(() => undefined);
    return saved;
  }
}
