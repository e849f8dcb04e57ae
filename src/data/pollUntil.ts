import { abortableSleep, type Sleep } from "./abortableSleep";

export interface PollOptions<T> {
  /**
   * A state in hand already (a submission's or a list's answer): it is the first look, so the first request
   * comes after the first wait instead of repeating what was just said.
   */
  seen?: T;
  /** Called with every state seen, the first included. */
  onUpdate?: (state: T) => void;
  signal?: AbortSignal;
  /** First wait between two looks; each further wait grows by `factor` up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  factor?: number;
  sleep?: Sleep;
}

/** Jobs usually finish in seconds, some in many minutes: start quick, then back off to spare the request budget. */
const DEFAULT_POLL = { initialDelayMs: 2_000, maxDelayMs: 60_000, factor: 2 } as const;

/**
 * Looks at something until it is done: `look` again after a wait that doubles each time (up to a ceiling), so
 * a long job costs a handful of requests out of the ~100 per 5 minutes the service allows.
 */
export async function pollUntil<T>(
  look: (signal?: AbortSignal) => Promise<T>,
  isDone: (state: T) => boolean,
  options: PollOptions<T> = {},
): Promise<T> {
  const sleep = options.sleep ?? abortableSleep;
  const maxDelay = options.maxDelayMs ?? DEFAULT_POLL.maxDelayMs;
  const factor = options.factor ?? DEFAULT_POLL.factor;
  let delay = options.initialDelayMs ?? DEFAULT_POLL.initialDelayMs;
  let state = "seen" in options ? (options.seen as T) : await look(options.signal);
  for (;;) {
    options.onUpdate?.(state);
    if (isDone(state)) return state;
    await sleep(delay, options.signal);
    delay = Math.min(maxDelay, delay * factor);
    state = await look(options.signal);
  }
}
