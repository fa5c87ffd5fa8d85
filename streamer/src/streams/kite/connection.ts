/**
 * One socket to Kite's ticker carrying up to 3,000 instrument tokens: it subscribes by difference
 * in full mode (the mode with the exchange's timestamp), resubscribes everything after a
 * reconnect, reconnects with exponential back-off and jitter, and treats 5 s without a frame
 * (Kite sends a 1-byte heartbeat when idle) as a dead socket.
 */
import type { Logger } from 'pino';
import WebSocket from 'ws';
import { decodeKiteFrame, parseKiteText, type KiteTick } from './decode.ts';
import { backoffDelay } from '../backoff.ts';
import { diffSubscriptions } from '../subscriptions.ts';
import { startHeartbeatWatchdog, type HeartbeatWatchdog } from '../watchdog.ts';

/** Timings of a connection; tests shorten them. */
export interface KiteTiming {
  /** No frame for this long: the socket is dead. */
  watchdogMs: number;
  /** First reconnect delay; doubles each failed attempt up to `maxBackoffMs`, with jitter. */
  initialBackoffMs: number;
  maxBackoffMs: number;
  /** The least delay after a 429 on the upgrade (too many connections for the API key). */
  limitedBackoffMs: number;
  /** Tokens per subscribe, unsubscribe or mode message. */
  chunk: number;
}

/** Why a connection went down: a refusal of the token stops retrying; the rest retry. */
export type KiteDownKind = 'refused' | 'limited' | 'dropped';

export interface KiteConnectionEvents {
  onTicks(ticks: KiteTick[]): void;
  onLive(): void;
  onDown(reason: string, kind: KiteDownKind): void;
}

export class KiteConnection {
  /** The tokens this connection should carry; `sync()` tells Kite the difference. */
  readonly tokens = new Set<number>();
  private subscribed = new Set<number>();
  private socket?: WebSocket;
  private live = false;
  private retryTimer?: NodeJS.Timeout;
  private watchdog?: HeartbeatWatchdog;
  private attempt = 0;
  private halted = true;
  /** Set when the watchdog ends the socket, so the drop is reported as silence. */
  private silentFor?: number;

  constructor(
    private readonly name: string,
    private readonly url: () => string,
    private readonly timing: KiteTiming,
    private readonly log: Logger,
    private readonly events: KiteConnectionEvents,
  ) {}

  get isLive(): boolean {
    return this.live;
  }

  /** Connects now (forgetting earlier failures) unless already connected or connecting. */
  connect(): void {
    this.halted = false;
    this.attempt = 0;
    clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    if (!this.socket) this.open();
  }

  /** Sends the subscription difference when the socket is open (else it is sent on open). */
  sync(): void {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return;
    const diff = diffSubscriptions(this.subscribed, this.tokens, this.timing.chunk);
    for (const part of diff.unsubscribe) this.send({ a: 'unsubscribe', v: part });
    for (const part of diff.subscribe) {
      this.send({ a: 'subscribe', v: part });
      this.send({ a: 'mode', v: ['full', part] });
    }
    this.subscribed = new Set(this.tokens);
  }

  /** Closes the socket and stops retrying until `connect()`. */
  async close(): Promise<void> {
    this.halted = true;
    clearTimeout(this.retryTimer);
    this.watchdog?.stop();
    const socket = this.socket;
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    if (socket.readyState === WebSocket.OPEN) socket.close(1000);
    else socket.terminate();
    await closed;
  }

  private open(): void {
    const socket = new WebSocket(this.url(), { headers: { 'X-Kite-Version': '3' } });
    this.socket = socket;
    let handshakeStatus: number | undefined;
    let lastError: string | undefined;
    this.silentFor = undefined;

    socket.on('unexpected-response', (_request, response) => {
      handshakeStatus = response.statusCode;
      response.resume();
      socket.terminate();
    });
    socket.on('error', (error) => (lastError = error.message));
    socket.on('open', () => {
      this.attempt = 0;
      this.subscribed.clear();
      this.live = true;
      this.watchdog = startHeartbeatWatchdog({
        silenceMs: this.timing.watchdogMs,
        onSilence: (silentFor) => {
          this.silentFor = silentFor;
          this.log.warn({ stream: this.name, silentMs: silentFor }, 'kite: no frame from the ticker');
          socket.terminate();
        },
      });
      this.sync();
      this.events.onLive();
    });
    socket.on('message', (data, isBinary) => {
      this.watchdog?.feed();
      if (isBinary) this.onBinary(toBuffer(data));
      else this.onText(toBuffer(data).toString('utf8'));
    });
    socket.on('close', (code) => {
      this.watchdog?.stop();
      this.socket = undefined;
      this.live = false;
      if (this.halted) return;
      if (handshakeStatus === 403) {
        this.halted = true;
        return this.events.onDown('Kite refused the access token (403 on the upgrade)', 'refused');
      }
      const limited = handshakeStatus === 429;
      const reason = limited
        ? 'Kite refused another connection for this API key (429)'
        : handshakeStatus
          ? `Kite answered ${handshakeStatus} on the upgrade`
          : this.silentFor !== undefined
            ? `no frame from the ticker for ${(this.silentFor / 1000).toFixed(1)} s`
            : (lastError ?? `the ticker closed the socket (${code})`);
      this.events.onDown(reason, limited ? 'limited' : 'dropped');
      this.scheduleReconnect(limited);
    });
  }

  private onBinary(frame: Buffer): void {
    try {
      const ticks = decodeKiteFrame(frame);
      if (ticks.length > 0) this.events.onTicks(ticks);
    } catch (error) {
      this.log.warn({ err: error, stream: this.name, bytes: frame.length }, 'kite: unreadable ticker frame');
    }
  }

  private onText(text: string): void {
    const message = parseKiteText(text);
    if (message.type === 'error')
      this.log.warn({ stream: this.name, kite: message.message }, 'kite: ticker error');
    else if (message.type === 'unreadable')
      this.log.warn({ stream: this.name, text: message.text }, 'kite: unreadable text frame');
    else this.log.debug({ stream: this.name, type: message.type }, 'kite: ticker message');
  }

  private scheduleReconnect(limited: boolean): void {
    const normal = backoffDelay(this.attempt++, this.timing.initialBackoffMs, this.timing.maxBackoffMs);
    const delay = limited ? Math.max(normal, this.timing.limitedBackoffMs) : normal;
    this.log.info({ stream: this.name, delayMs: delay, attempt: this.attempt }, 'kite: reconnecting');
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      if (!this.halted && !this.socket) this.open();
    }, delay);
  }

  private send(message: unknown): void {
    this.socket?.send(JSON.stringify(message));
  }
}

function toBuffer(data: WebSocket.RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
