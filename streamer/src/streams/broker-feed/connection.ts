/**
 * One socket of a broker feed, kept up by itself: connect, subscribe what it carries, watch for
 * silence, and reconnect with back-off; after an authentication refusal it waits for new
 * credentials instead. Driven by `stream.ts`.
 */
import WebSocket from 'ws';
import type { Logger } from 'pino';
import type { StreamCredentials, StreamState } from '../types.ts';
import { FeedRefusal, type DecodedTick, type FeedProtocol } from './protocol.ts';
import { backoffDelay } from '../backoff.ts';
import { diffSubscriptions } from '../subscriptions.ts';
import { startHeartbeatWatchdog, type HeartbeatWatchdog } from '../watchdog.ts';

export interface FeedTimings {
  /** No frame (data, ping or pong) for this long → the socket is dropped and reconnected. */
  watchdogMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

interface ConnectionDeps {
  protocol: FeedProtocol;
  timings: FeedTimings;
  log: Logger;
  credentials: () => StreamCredentials;
  onTicks: (ticks: DecodedTick[]) => void;
  onState: () => void;
}

export class FeedConnection {
  /** The broker keys this socket should carry. */
  keys = new Set<string>();
  state: StreamState = { state: 'connecting' };
  private subscribed = new Set<string>();
  private socket: WebSocket | undefined;
  private running = false;
  private stopped = false;
  private attempt = 0;
  private wake: (() => void) | undefined;
  private closed: Promise<void> = Promise.resolve();

  constructor(private readonly deps: ConnectionDeps) {}

  start(): void {
    if (this.running || this.stopped) return;
    this.running = true;
    this.closed = this.run().catch((err: unknown) => this.deps.log.error({ err }, 'feed connection failed'));
  }

  /** The keys to carry from now on; an open socket is told the difference. */
  setKeys(keys: string[]): void {
    this.keys = new Set(keys);
    this.sync();
  }

  credentialsChanged(): void {
    if (this.state.state === 'auth_refused') this.wake?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    this.socket?.terminate();
    await this.closed;
  }

  private setState(state: StreamState): void {
    this.state = state;
    if (!this.stopped) this.deps.onState();
  }

  private sync(): void {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return;
    // The protocol cuts its own messages to the broker's size.
    const diff = diffSubscriptions(this.subscribed, this.keys, Number.POSITIVE_INFINITY);
    for (const keys of diff.unsubscribe)
      for (const frame of this.deps.protocol.subscribeFrames(keys, false)) socket.send(frame);
    for (const keys of diff.subscribe)
      for (const frame of this.deps.protocol.subscribeFrames(keys, true)) socket.send(frame);
    this.subscribed = new Set(this.keys);
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      if (this.state.state === 'auth_refused') {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
        if (this.stopped) return;
      }
      this.setState({ state: 'connecting' });
      const ending = await this.session();
      if (this.stopped) return;
      this.setState(ending);
      if (ending.state === 'auth_refused') {
        this.deps.log.warn({ reason: ending.reason }, 'feed refused the credentials; waiting for new ones');
        continue;
      }
      const delay = backoffDelay(
        this.attempt++,
        this.deps.timings.backoffBaseMs,
        this.deps.timings.backoffMaxMs,
      );
      this.deps.log.info({ reason: ending.reason, delayMs: Math.round(delay) }, 'feed down; reconnecting');
      await this.pause(delay);
    }
  }

  /** One socket from connect to close; answers how it ended. */
  private async session(): Promise<Extract<StreamState, { state: 'down' } | { state: 'auth_refused' }>> {
    const { protocol, timings } = this.deps;
    let target: Awaited<ReturnType<FeedProtocol['locate']>>;
    try {
      target = await protocol.locate(this.deps.credentials());
    } catch (err) {
      if (err instanceof FeedRefusal) return { state: err.kind, reason: err.message };
      return { state: 'down', reason: err instanceof Error ? err.message : String(err) };
    }
    if (this.stopped) return { state: 'down', reason: 'stopped' };
    const socket = new WebSocket(target.url, { headers: target.headers, followRedirects: true });
    this.socket = socket;
    return new Promise((resolve) => {
      let ending: Extract<StreamState, { state: 'down' } | { state: 'auth_refused' }> | undefined;
      let watchdog: HeartbeatWatchdog | undefined;
      let pinger: NodeJS.Timeout | undefined;
      let keepAlive: NodeJS.Timeout | undefined;
      const heard = () => watchdog?.feed();
      const finish = () => {
        watchdog?.stop();
        clearInterval(pinger);
        clearInterval(keepAlive);
        this.socket = undefined;
        this.subscribed.clear();
        resolve(ending ?? { state: 'down', reason: 'connection lost' });
      };
      socket.on('unexpected-response', (_req, res) => {
        const status = res.statusCode ?? 0;
        const message = res.headers['x-error-message'];
        const reason = `HTTP ${status} on connect${message ? `: ${String(message)}` : ''}`;
        ending =
          status === 401 || status === 403 ? { state: 'auth_refused', reason } : { state: 'down', reason };
        res.resume();
        socket.terminate();
      });
      socket.on('open', () => {
        this.attempt = 0;
        watchdog = startHeartbeatWatchdog({
          silenceMs: timings.watchdogMs,
          onSilence: () => {
            ending ??= { state: 'down', reason: `no frame for ${timings.watchdogMs} ms` };
            socket.terminate();
          },
        });
        pinger = setInterval(() => socket.ping(), Math.max(50, timings.watchdogMs / 2));
        if (protocol.keepAlive) {
          const { frame, everyMs } = protocol.keepAlive;
          keepAlive = setInterval(() => socket.send(frame), everyMs);
        }
        this.sync();
        this.setState({ state: 'live' });
      });
      socket.on('ping', heard);
      socket.on('pong', heard);
      socket.on('message', (data: Buffer, isBinary: boolean) => {
        heard();
        const reading = protocol.read(data, isBinary);
        if (reading.ticks.length > 0) this.deps.onTicks(reading.ticks);
        if (reading.ending) ending = reading.ending;
      });
      socket.on('error', (err) => {
        ending ??= { state: 'down', reason: err.message };
      });
      socket.on('close', (code) => {
        ending ??= { state: 'down', reason: `closed (${code})` };
        finish();
      });
    });
  }
}
