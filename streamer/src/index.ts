/**
 * @app/streamer: quotes in, tick batches out. What the server needs for embedded mode (an
 * in-process bus and streamer) and for scaled mode (the Redis bus and the watch set).
 */
export { createMemoryBus, createRedisBus, BusClosedError, guardUnhandledRejections } from './bus/index.ts';
export type { BatchHandler, FeedState, MarketBus, WatchedInstrument } from './bus/index.ts';
export { createConfiguredStreamer } from './source.ts';
export { createStreamer } from './streamer.ts';
export type { Streamer, StreamerDeps } from './streamer.ts';
export { createProvider, QuoteProviderError, ReplayFileError } from './providers/index.ts';
export type { ProviderConfig, ProviderOptions, QuoteProvider } from './providers/index.ts';
export {
  createMarketCalendar,
  nseCalendar,
  isMarketOpen,
  nextOpen,
  lastClose,
} from '@app/common/market/calendar';
export type { CalendarData, MarketCalendar } from '@app/common/market/calendar';
export { createLeaderLock } from './leader.ts';
export type { LeaderLock } from './leader.ts';
export { createKiteStream } from './streams/kite/index.ts';
export type { KiteStreamOptions } from './streams/kite/index.ts';
export type { QuoteStream, StreamCredentials, StreamQuote, StreamState } from './streams/types.ts';
export { createYahooChart } from './providers/yahoo-chart.ts';
export type { YahooChart } from './providers/yahoo-chart.ts';
