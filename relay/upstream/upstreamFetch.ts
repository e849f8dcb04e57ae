import { createHash } from "node:crypto";
import { ApiError } from "../../src/api/errors";
import type { OperationRequest } from "../../src/api/operations";
import { sentOperation, sentOperationId } from "../../src/api/sentOperation";
import { currentUser } from "../requestContext";
import type { RelayStats } from "../status/relayStats";
import type { Budget, Flights, SharedResponse } from "../store/relayStore";
import { carried, type Interests } from "./interests";
import { isQuotaAnswer, QuotaStops, quotaBoundAccount, rateLimitWaitMs } from "./quotaStops";
import { REAL_CLOCK, type RelayClock } from "./relayClock";
import type { GateTicket, ReportedLimit, TeamGate } from "./teamGate";

/** How long other instances wait on a claimed request before sending it themselves. */
const FLIGHT_TIMEOUT_MS = 60_000;

/**
 * Longest an upstream call may take, headers and body, once the gate has let it out: below the add-in's own
 * 30 s bound on a request, so the person hears the relay's clear 504 rather than their own time-out.
 */
export const DEFAULT_UPSTREAM_DEADLINE_MS = 25_000;

export interface UpstreamFetchParts {
  /** Where the contract's paths start at the service: `{serviceUrl}/v1`. */
  apiBase: string;
  gate: TeamGate;
  limit: ReportedLimit;
  budget: Budget;
  flights: Flights;
  stats: RelayStats;
  interests: Interests;
  fetch?: typeof fetch;
  clock?: RelayClock;
  deadlineMs?: number;
}

/**
 * Whether identical requests in flight anywhere in the team may share one answer: the table's word on the
 * operation the request is (reads yes; job submissions, cancellations and downloads no). Anything outside the
 * table is sent as its sender's own.
 */
export function sharesAnswer(sent: OperationRequest | undefined): boolean {
  return sent?.operation.shareable === true;
}

async function bodyText(body: RequestInit["body"]): Promise<string> {
  if (body === undefined || body === null) return "";
  if (typeof body === "string") return body;
  return new Response(body).text();
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function toShared(response: Response, body: Buffer): SharedResponse {
  return {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: body.toString("base64"),
  };
}

function fromShared(shared: SharedResponse): Response {
  const nullBody = NULL_BODY_STATUSES.has(shared.status);
  return new Response(nullBody ? null : Buffer.from(shared.body, "base64"), {
    status: shared.status,
    headers: shared.headers,
  });
}

/** The error of an upstream call that passed its deadline. */
export function deadlinePassed(deadlineMs: number): ApiError {
  return new ApiError(
    "timeout",
    `The service did not answer the team relay within ${Math.round(deadlineMs / 1000)} seconds. Try again in a moment.`,
  );
}

/**
 * A fetch with a deadline on the whole exchange, headers and body: past it the call is aborted and fails with
 * an ApiError "timeout" (the relay answers 504). The body is read here, so a service that trickles it cannot
 * hold the call; `signal` (the client's) still ends it earlier.
 */
export async function fetchWithDeadline(
  fetchImpl: typeof fetch,
  url: URL | string,
  init: RequestInit,
  deadlineMs: number,
  clock: RelayClock = REAL_CLOCK,
): Promise<{ response: Response; body: Buffer }> {
  const deadline = new AbortController();
  const settled = new AbortController();
  clock.sleep(deadlineMs, settled.signal).then(
    () => deadline.abort(deadlinePassed(deadlineMs)),
    () => undefined,
  );
  const signals = [deadline.signal, ...(init.signal ? [init.signal] : [])];
  try {
    const response = await fetchImpl(url, { ...init, signal: AbortSignal.any(signals) });
    const body = Buffer.from(await response.arrayBuffer());
    return { response, body };
  } catch (error) {
    if (deadline.signal.aborted) throw deadline.signal.reason as ApiError;
    if (init.signal?.aborted)
      throw new ApiError("cancelled", "The request was cancelled: its client has gone.");
    throw error;
  } finally {
    settled.abort();
  }
}

/**
 * A download from a signed URL outside the service's API (an export file), bounded like every upstream call:
 * the headers must come within `deadlineMs`, and the body may not stall longer than `deadlineMs` between two
 * chunks (a file may be large; a stream that stops is over). Fails with ApiError "timeout" either way.
 */
export async function fetchDownload(
  url: string,
  deadlineMs: number = DEFAULT_UPSTREAM_DEADLINE_MS,
  clock: RelayClock = REAL_CLOCK,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
): Promise<Response> {
  const controller = new AbortController();
  let timer = new AbortController();
  const arm = () => {
    timer.abort();
    timer = new AbortController();
    clock.sleep(deadlineMs, timer.signal).then(
      () => controller.abort(deadlinePassed(deadlineMs)),
      () => undefined,
    );
  };
  arm();
  let response: Response;
  try {
    response = await fetchImpl(url, { redirect: "follow", signal: controller.signal });
  } catch (error) {
    timer.abort();
    if (controller.signal.aborted) throw controller.signal.reason as ApiError;
    throw error;
  }
  if (!response.body) {
    timer.abort();
    return response;
  }
  arm();
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(stream) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          timer.abort();
          stream.close();
          return;
        }
        arm();
        stream.enqueue(value);
      } catch (error) {
        timer.abort();
        stream.error(controller.signal.aborted ? controller.signal.reason : error);
      }
    },
    cancel(reason) {
      timer.abort();
      controller.abort(reason);
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}

/**
 * The fetch every upstream request of the relay goes through (the token request aside). Identical reads in
 * flight anywhere in the team are sent once (single-flight through the store); every request that is sent
 * waits its turn at the team gate, on behalf of everyone it serves, and has a deadline; the service's
 * reported limit, its 429 pauses and each account's quota answers are learned here.
 */
export function createUpstreamFetch(parts: UpstreamFetchParts): typeof fetch {
  const fetchImpl = parts.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const clock = parts.clock ?? REAL_CLOCK;
  const deadlineMs = parts.deadlineMs ?? DEFAULT_UPSTREAM_DEADLINE_MS;
  const quota = new QuotaStops(clock.now);
  /** Requests of this instance waiting at the gate, by flight key: who waits on one may lend it their turn. */
  const waiting = new Map<string, GateTicket>();

  const send = async (
    url: URL,
    init: RequestInit,
    sent: OperationRequest | undefined,
    flightKey?: string,
  ): Promise<Response> => {
    const account = quotaBoundAccount(sent);
    const stopped = quota.answer(account);
    if (stopped) return stopped;

    // The sender's own request; it waits in the queue of whoever else's read it serves only while they wait.
    const signal = init.signal ?? undefined;
    const call = carried(sent);
    const ticket = parts.gate.enter(currentUser(), signal, parts.interests.peopleServedBy(call));
    const called = parts.interests.waitingCall(call, ticket);
    if (flightKey) waiting.set(flightKey, ticket);
    try {
      await ticket.granted;
    } finally {
      called();
      if (flightKey && waiting.get(flightKey) === ticket) waiting.delete(flightKey);
    }
    const { response, body: bytes } = await fetchWithDeadline(fetchImpl, url, init, deadlineMs, clock);
    // Counted by method and path, as the metrics count it, even when its values are not the contract's.
    await parts.stats.upstreamSent(currentUser(), sentOperationId(init.method ?? "GET", url, parts.apiBase));
    parts.limit.learn(response.headers);
    if (response.status === 429) {
      await parts.stats.rateLimited();
      if (isQuotaAnswer(bytes)) {
        // One account's quota: its quota-bound calls stop; the team's budget and everyone else go on.
        if (account !== undefined) quota.stop(account, response, bytes);
      } else {
        await parts.budget.pauseUntil(clock.now() + rateLimitWaitMs(response.headers, clock.now()));
      }
    }
    return new Response(NULL_BODY_STATUSES.has(response.status) ? null : new Uint8Array(bytes), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };

  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input));
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    const body =
      request && init?.body === undefined ? await request.clone().text() : await bodyText(init?.body);
    const headers = new Headers(request?.headers);
    for (const [name, value] of new Headers(init?.headers)) headers.set(name, value);
    const forward: RequestInit = {
      method,
      headers,
      body: body === "" ? undefined : body,
      signal: init?.signal ?? request?.signal,
      // The service's redirects are never followed for a read (the one it documents, a job's results, has its own
      // route): a 3xx reaches the caller as the service's answer, and nothing is fetched from where it points.
      redirect: init?.redirect ?? "manual",
    };
    const sent = sentOperation(method, url, parts.apiBase, body);
    if (!sharesAnswer(sent)) return send(url, forward, sent);

    const key = createHash("sha256").update(`${method} ${url.href}\n${body}`).digest("hex");
    if (!(await parts.flights.claim(key, FLIGHT_TIMEOUT_MS))) {
      // Waiting on someone's identical request: it may go out on this person's turn too, while they wait.
      const leave = waiting.get(key)?.join(currentUser());
      const answer = await parts.flights.waitFor(key, FLIGHT_TIMEOUT_MS).finally(() => leave?.());
      if (answer) {
        await parts.stats.sharedAnswer();
        return fromShared(answer);
      }
      return send(url, forward, sent);
    }
    let shared: SharedResponse | undefined;
    try {
      const response = await send(url, forward, sent, key);
      const bytes = Buffer.from(await response.arrayBuffer());
      shared = toShared(response, bytes);
      return fromShared(shared);
    } finally {
      await parts.flights.finish(key, shared);
    }
  };
}
