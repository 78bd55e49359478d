// One controller and one timer for a call with a deadline and a caller that may cancel: what
// AbortSignal.any([caller, AbortSignal.timeout(ms)]) does, at a fraction of its cost (the link
// check makes thousands of calls), and telling which of the two fired.

export interface CallDeadline {
  signal: AbortSignal;
  /** true once the deadline (not the caller) ended the call */
  expired(): boolean;
  /** stops the timer and lets go of the caller's signal; call when the call is over */
  dispose(): void;
}

/** A signal that fires at the deadline or when the caller cancels, whichever comes first. */
export function callDeadline(timeoutMs: number, caller: AbortSignal | undefined): CallDeadline {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort(caller?.reason);
  if (caller?.aborted) onAbort();
  caller?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    expired: () => expired,
    dispose: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onAbort);
    },
  };
}
