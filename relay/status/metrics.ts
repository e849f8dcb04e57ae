import { sentOperationLabel } from "./operationLabel";

/** What `/metrics` reads at scrape time besides its counters. */
export interface MetricGauges {
  /** Requests waiting at the team gate, per person (only the total and the number of people are shown). */
  waiting(): Record<string, number>;
  /** When the current pause of the service ends (ms since the epoch; 0 or past when none). */
  pausedUntil(): Promise<number>;
  now(): number;
}

function escapeLabel(value: string): string {
  return value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
}

/**
 * This instance's figures in Prometheus' text format (each instance is scraped on its own; the status page
 * shows the team's figures summed in the store). No person, account or key appears in a label.
 */
export class RelayMetrics {
  private readonly upstream = new Map<string, number>();
  private cacheHits = 0;
  private cacheMisses = 0;
  private pauses = 0;
  private sharedAnswers = 0;

  private upstreamAnswered(label: string, status: number | "error"): void {
    const key = `${label}\n${status}`;
    this.upstream.set(key, (this.upstream.get(key) ?? 0) + 1);
  }

  pauseStarted(): void {
    this.pauses += 1;
  }

  cacheLookups(hits: number, misses: number): void {
    this.cacheHits += hits;
    this.cacheMisses += misses;
  }

  sharedAnswer(): void {
    this.sharedAnswers += 1;
  }

  /**
   * `fetch` as the relay sends to the service, counting each answer by operation (read from the table, below
   * `apiBase`: `{serviceUrl}/v1`) and status.
   */
  observe(fetchImpl: typeof fetch, apiBase: string): typeof fetch {
    return async (input, init) => {
      const request = input instanceof Request ? input : undefined;
      const url = new URL(request ? request.url : String(input));
      const method = init?.method ?? request?.method ?? "GET";
      const label = sentOperationLabel(method, url, apiBase);
      let response: Response;
      try {
        response = await fetchImpl(input, init);
      } catch (error) {
        this.upstreamAnswered(label, "error");
        throw error;
      }
      this.upstreamAnswered(label, response.status);
      if (response.status === 429) this.pauseStarted();
      return response;
    };
  }

  async render(gauges: MetricGauges): Promise<string> {
    const waiting = Object.values(gauges.waiting());
    const pausedMs = Math.max(0, (await gauges.pausedUntil()) - gauges.now());
    const lines: string[] = [
      "# HELP relay_upstream_requests_total Requests this instance sent to the service, by operation and answer status.",
      "# TYPE relay_upstream_requests_total counter",
    ];
    for (const [key, count] of [...this.upstream].sort(([a], [b]) => a.localeCompare(b))) {
      const [operation, status] = key.split("\n") as [string, string];
      lines.push(
        `relay_upstream_requests_total{operation="${escapeLabel(operation)}",status="${status}"} ${count}`,
      );
    }
    lines.push(
      "# HELP relay_upstream_pauses_total Answers 429 from the service, each of which pauses requests.",
      "# TYPE relay_upstream_pauses_total counter",
      `relay_upstream_pauses_total ${this.pauses}`,
      "# HELP relay_upstream_paused_seconds Seconds left of the current pause (0 when none).",
      "# TYPE relay_upstream_paused_seconds gauge",
      `relay_upstream_paused_seconds ${pausedMs / 1000}`,
      "# HELP relay_queue_length Requests waiting for their turn at the team gate.",
      "# TYPE relay_queue_length gauge",
      `relay_queue_length ${waiting.reduce((sum, count) => sum + count, 0)}`,
      "# HELP relay_queue_people People with at least one request waiting at the team gate.",
      "# TYPE relay_queue_people gauge",
      `relay_queue_people ${waiting.filter((count) => count > 0).length}`,
      "# HELP relay_cache_hits_total Answers (or batch items) served from the cache.",
      "# TYPE relay_cache_hits_total counter",
      `relay_cache_hits_total ${this.cacheHits}`,
      "# HELP relay_cache_misses_total Answers (or batch items) the cache did not hold.",
      "# TYPE relay_cache_misses_total counter",
      `relay_cache_misses_total ${this.cacheMisses}`,
      "# HELP relay_shared_answers_total Answers taken from another instance's request in flight.",
      "# TYPE relay_shared_answers_total counter",
      `relay_shared_answers_total ${this.sharedAnswers}`,
    );
    return `${lines.join("\n")}\n`;
  }
}
