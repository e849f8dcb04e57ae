interface Watch {
  /** The one listener this module keeps on the signal. */
  listener: () => void;
  callbacks: Set<{ callback: () => void }>;
}

const watches = new WeakMap<AbortSignal, Watch>();

/**
 * Calls `callback` once if `signal` aborts; the returned function stops watching and must be called when the
 * wait settles. However many waits share a signal (a block formula of 250 ids waits on its cell's one
 * signal), the signal carries one listener, which goes when the last wait stops watching.
 */
export function watchAbort(signal: AbortSignal, callback: () => void): () => void {
  let watch = watches.get(signal);
  if (!watch) {
    const created: Watch = {
      callbacks: new Set(),
      listener: () => {
        watches.delete(signal);
        for (const entry of [...created.callbacks]) entry.callback();
        created.callbacks.clear();
      },
    };
    watch = created;
    watches.set(signal, created);
    signal.addEventListener("abort", created.listener, { once: true });
  }
  const entry = { callback };
  const held = watch;
  held.callbacks.add(entry);
  return () => {
    if (!held.callbacks.delete(entry) || held.callbacks.size > 0) return;
    signal.removeEventListener("abort", held.listener);
    if (watches.get(signal) === held) watches.delete(signal);
  };
}
