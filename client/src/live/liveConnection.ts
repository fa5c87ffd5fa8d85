/**
 * The tab's one Socket.IO connection (docs/live-prices.md: same origin, `auth: {token}`).
 *
 * - WebSocket first, long-polling where a WebSocket cannot open.
 * - Opened while anything holds it (`retainLive`), closed shortly after the last holder lets go.
 * - Every (re)connect attempt reads the stored access token, so a token refreshed by the API
 *   client or another tab is used automatically.
 * - When the server closes the socket ('io server disconnect': the 15-minute token expired or
 *   the sessions were revoked) or refuses the handshake, the session is refreshed once and the
 *   socket reconnects with backoff; if the session cannot be renewed the state becomes offline.
 *   Refused for having too many connections, the state says so and it retries with backoff.
 * - The server's `feed:status` says whether prices can reach the tab: while its link to the
 *   market feed (Redis) is down the socket stays connected but the state is reconnecting.
 * - `market:feed` (the source and the newest price, the same for every user) goes into the feed
 *   store, `quotes` into the quote store; the other pushes are passed on to `onLiveEvent` listeners:
 *   `connect` (after every (re)connect, and on the server's `resync`: it may have missed
 *   changes), `holdings:changed` / `rules:changed` / `endpoints:changed` (pages re-fetch their
 *   REST snapshot), `alert` and `execution:status` (pages patch what they hold from the
 *   payload), `rules:levels` (with the levels).
 */
import type { ApiRuleExecution } from '@app/common/api/rules';
import type { ClientToServerEvents, ServerToClientEvents } from '@app/common/realtime/events';
import { io, type Socket } from 'socket.io-client';
import { refreshSession } from '../api/client.ts';
import { getAccessToken } from '../api/tokens.ts';
import { setMarketFeed } from './feedStore.ts';
import { refusalResponse, type ConnectionStatus } from './marketState.ts';
import { quoteStore } from './quoteStore.ts';

type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Trailing stops whose level rose (the `rules:levels` push). */
export type RuleLevelsPush = Parameters<ServerToClientEvents['rules:levels']>[0];

/** An execution's settled delivery status (the `execution:status` push). */
export type ExecutionStatusPush = Parameters<ServerToClientEvents['execution:status']>[0];

/** Things pages react to, with what each carries. `connect` fires after every (re)connect. */
export interface LivePayloads {
  connect: [];
  'holdings:changed': [];
  'rules:changed': [];
  'endpoints:changed': [];
  alert: [execution: ApiRuleExecution];
  'execution:status': [update: ExecutionStatusPush];
  'rules:levels': [levels: RuleLevelsPush];
}
export type LiveEvent = keyof LivePayloads;
type LiveListener<E extends LiveEvent> = (...args: LivePayloads[E]) => void;

const RELEASE_DELAY_MS = 1_000;
const MAX_BACKOFF_MS = 30_000;

let socket: LiveSocket | null = null;
let holders = 0;
let releaseTimer: number | undefined;
let retryTimer: number | undefined;
let failedAttempts = 0;
let status: ConnectionStatus = 'idle';
let handshakeToken: string | null = null;

const statusListeners = new Set<() => void>();
const eventListeners = new Map<LiveEvent, Set<LiveListener<never>>>();

/** Keeps the connection open until the returned function is called. */
export function retainLive(): () => void {
  holders += 1;
  window.clearTimeout(releaseTimer);
  if (!socket) open();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    holders -= 1;
    // React's StrictMode (and quick page changes) release and retain at once: wait a moment.
    if (holders === 0) releaseTimer = window.setTimeout(close, RELEASE_DELAY_MS);
  };
}

export function connectionStatus(): ConnectionStatus {
  return status;
}

export function subscribeConnectionStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

/** Calls `listener` on a live event, with its payload. Returns the unsubscribe. */
export function onLiveEvent<E extends LiveEvent>(event: E, listener: LiveListener<E>): () => void {
  let set = eventListeners.get(event);
  if (!set) {
    set = new Set();
    eventListeners.set(event, set);
  }
  const held = listener as LiveListener<never>;
  set.add(held);
  return () => set.delete(held);
}

function setStatus(next: ConnectionStatus): void {
  if (next === status) return;
  status = next;
  for (const listener of statusListeners) listener();
}

function emit<E extends LiveEvent>(event: E, ...args: LivePayloads[E]): void {
  for (const listener of eventListeners.get(event) ?? []) (listener as LiveListener<E>)(...args);
}

function open(): void {
  setStatus('connecting');
  const live: LiveSocket = io(window.location.origin, {
    // Read at every attempt, so a refreshed token is picked up.
    auth: (callback) => {
      handshakeToken = getAccessToken();
      callback({ token: handshakeToken });
    },
    // WebSocket first (docs/live-prices.md: behind a load balancer without sticky sessions);
    // long-polling only where a WebSocket cannot open (a proxy that refuses upgrades).
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
    reconnectionDelay: 1_000,
    reconnectionDelayMax: MAX_BACKOFF_MS,
  });
  socket = live;

  live.on('connect', () => {
    failedAttempts = 0;
    setStatus('live');
    emit('connect');
  });
  live.on('disconnect', (reason) => {
    if (reason === 'io client disconnect') return;
    setStatus('reconnecting');
    // The server closed it on purpose (token expired, sessions revoked): Socket.IO will not retry.
    if (reason === 'io server disconnect') reconnectLater(live, true);
  });
  live.on('connect_error', (err) => {
    // `active` is false when the server refused the handshake; Socket.IO then stops retrying.
    if (live.active) return setStatus('reconnecting');
    // Too many tabs open: say so, and keep trying (a tab closing frees a place). Only a refused
    // token renews the session; other refusals (the server briefly unable to check) just retry.
    const refusal = refusalResponse(err.message);
    if (refusal.tooMany) setStatus('too-many');
    reconnectLater(live, refusal.renewSession);
  });
  live.on('feed:status', ({ live: feedLive }) => {
    if (live.connected) setStatus(feedLive ? 'live' : 'reconnecting');
  });
  live.on('market:feed', (feed) => setMarketFeed(feed));
  live.on('quotes', (message) => quoteStore.applyBatch(message));
  live.on('holdings:changed', () => emit('holdings:changed'));
  live.on('rules:changed', () => emit('rules:changed'));
  live.on('endpoints:changed', () => emit('endpoints:changed'));
  live.on('alert', (payload) => emit('alert', payload.execution));
  live.on('execution:status', (update) => emit('execution:status', update));
  // The server may have missed changes: refetch as after a reconnect.
  live.on('resync', () => emit('connect'));
  live.on('rules:levels', (levels) => emit('rules:levels', levels));
}

/** Connects again after a backoff, renewing the session first when the token was refused. */
function reconnectLater(live: LiveSocket, renewSession: boolean): void {
  window.clearTimeout(retryTimer);
  failedAttempts += 1;
  const delay = Math.min(MAX_BACKOFF_MS, 500 * 2 ** (failedAttempts - 1));
  retryTimer = window.setTimeout(() => {
    if (socket !== live) return;
    const renewal = renewSession ? refreshSession(handshakeToken) : Promise.resolve(true);
    renewal.then(
      (renewed) => {
        if (socket !== live) return;
        if (renewed && getAccessToken()) {
          if (status !== 'too-many') setStatus('reconnecting');
          live.connect();
        } else {
          setStatus('offline');
        }
      },
      (err: unknown) => {
        console.warn('Could not renew the session for live prices', err);
        if (socket === live) setStatus('offline');
      },
    );
  }, delay);
}

function close(): void {
  window.clearTimeout(retryTimer);
  const live = socket;
  socket = null;
  failedAttempts = 0;
  live?.removeAllListeners();
  live?.disconnect();
  quoteStore.clear();
  setMarketFeed(null);
  setStatus('idle');
}
