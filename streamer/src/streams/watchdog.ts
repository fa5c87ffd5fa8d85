/**
 * The heartbeat watchdog of one stream connection: every broker sends something (a tick, a
 * one-byte heartbeat, a ping) at least every few seconds, so a connection that has said nothing
 * for `silenceMs` is dead even if TCP has not noticed. The caller feeds it every frame and
 * reconnects when it fires.
 */

/** A running watchdog. */
export interface HeartbeatWatchdog {
  /** A frame (or a ping/pong) arrived: the silence starts over. */
  feed(): void;
  /** Stops watching (the connection closed); it never fires afterwards. */
  stop(): void;
}

/** Watchdog tuning. */
export interface HeartbeatWatchdogOptions {
  /** Longest silence before `onSilence` (default 5 s). */
  silenceMs?: number;
  /** Called once, after `silenceMs` without a frame; the watchdog then stops. */
  onSilence(silentForMs: number): void;
  now?: () => number;
}

/** Starts watching at once (the silence counts from now). */
export function startHeartbeatWatchdog(options: HeartbeatWatchdogOptions): HeartbeatWatchdog {
  const silenceMs = options.silenceMs ?? 5000;
  const now = options.now ?? Date.now;
  let lastFrameAt = now();
  let timer: NodeJS.Timeout | undefined;

  function arm(delayMs: number): void {
    timer = setTimeout(check, Math.max(0, delayMs));
    timer.unref();
  }

  function check(): void {
    timer = undefined;
    const silentFor = now() - lastFrameAt;
    if (silentFor >= silenceMs) options.onSilence(silentFor);
    else arm(silenceMs - silentFor);
  }

  arm(silenceMs);
  return {
    feed() {
      lastFrameAt = now();
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
