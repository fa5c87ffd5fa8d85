/**
 * Upstox Market Data Feed V3's `FeedResponse` (protobuf), read with protobufjs from the subset of
 * Upstox's `MarketDataFeedV3.proto` we use (same field numbers; docs/live-prices.md#upstox):
 * `FeedResponse {type=1; map<string,Feed> feeds=2; int64 currentTs=3; MarketInfo marketInfo=4}`,
 * `Feed {oneof {LTPC ltpc=1; FullFeed fullFeed=2}}`, `FullFeed {oneof {MarketFullFeed marketFF=1;
 * IndexFullFeed indexFF=2}}`, both full feeds with `LTPC ltpc=1`, `LTPC {double ltp=1; int64 ltt=2;
 * int64 ltq=3; double cp=4}`. Prices are doubles in rupees; `ltt` is epoch ms. Fields and kinds
 * outside the subset are skipped by the reader.
 */
import protobuf from 'protobufjs';

const ltpcField = { ltpc: { type: 'LTPC', id: 1 } };

/** Our subset of `MarketDataFeedV3.proto` as a protobufjs JSON descriptor. */
const descriptor = {
  nested: {
    LTPC: {
      fields: {
        ltp: { type: 'double', id: 1 },
        ltt: { type: 'int64', id: 2 },
        ltq: { type: 'int64', id: 3 },
        cp: { type: 'double', id: 4 },
      },
    },
    MarketFullFeed: { fields: ltpcField },
    IndexFullFeed: { fields: ltpcField },
    FullFeed: {
      oneofs: { FullFeedUnion: { oneof: ['marketFF', 'indexFF'] } },
      fields: { marketFF: { type: 'MarketFullFeed', id: 1 }, indexFF: { type: 'IndexFullFeed', id: 2 } },
    },
    Feed: {
      oneofs: { FeedUnion: { oneof: ['ltpc', 'fullFeed'] } },
      fields: { ltpc: { type: 'LTPC', id: 1 }, fullFeed: { type: 'FullFeed', id: 2 } },
    },
    MarketStatus: {
      values: {
        PRE_OPEN_START: 0,
        PRE_OPEN_END: 1,
        NORMAL_OPEN: 2,
        NORMAL_CLOSE: 3,
        CLOSING_START: 4,
        CLOSING_END: 5,
      },
    },
    MarketInfo: { fields: { segmentStatus: { keyType: 'string', type: 'MarketStatus', id: 1 } } },
    Type: { values: { initial_feed: 0, live_feed: 1, market_info: 2 } },
    FeedResponse: {
      fields: {
        type: { type: 'Type', id: 1 },
        feeds: { keyType: 'string', type: 'Feed', id: 2 },
        currentTs: { type: 'int64', id: 3 },
        marketInfo: { type: 'MarketInfo', id: 4 },
      },
    },
  },
};
const FeedResponse = protobuf.Root.fromJSON(descriptor).lookupType('FeedResponse');

/** An LTPC as the wire carried it: any field may be absent (proto3 leaves out zeros). */
export interface UpstoxLtpc {
  ltp?: number;
  ltt?: number;
  cp?: number;
}

/** One `FeedResponse`, reduced to what a quote needs. */
export interface UpstoxFeedResponse {
  type: 'initial_feed' | 'live_feed' | 'market_info';
  /** Instrument key → its LTPC; `undefined` for a feed that carried none (a full update without it). */
  feeds: Map<string, UpstoxLtpc | undefined>;
  currentTs?: number;
  /** Segment → status (`NSE_EQ` → `NORMAL_OPEN`), on `market_info`. */
  segmentStatus?: Record<string, string>;
}

interface LtpcObject {
  ltp?: number;
  ltt?: number;
  cp?: number;
}
interface FeedObject {
  ltpc?: LtpcObject;
  fullFeed?: { marketFF?: { ltpc?: LtpcObject }; indexFF?: { ltpc?: LtpcObject } };
}

/** Decodes one binary frame; throws a protobufjs error on bytes that are not a FeedResponse. */
export function decodeFeedResponse(bytes: Uint8Array): UpstoxFeedResponse {
  const message = FeedResponse.decode(bytes);
  const object = FeedResponse.toObject(message, { longs: Number, enums: String }) as {
    type?: UpstoxFeedResponse['type'];
    feeds?: Record<string, FeedObject>;
    currentTs?: number;
    marketInfo?: { segmentStatus?: Record<string, string> };
  };
  const feeds = new Map<string, UpstoxLtpc | undefined>();
  for (const [key, feed] of Object.entries(object.feeds ?? {})) {
    const ltpc = feed.ltpc ?? feed.fullFeed?.marketFF?.ltpc ?? feed.fullFeed?.indexFF?.ltpc;
    feeds.set(
      key,
      ltpc && {
        ...(ltpc.ltp !== undefined && { ltp: ltpc.ltp }),
        ...(ltpc.ltt !== undefined && { ltt: ltpc.ltt }),
        ...(ltpc.cp !== undefined && { cp: ltpc.cp }),
      },
    );
  }
  return {
    type: object.type ?? 'initial_feed',
    feeds,
    ...(object.currentTs !== undefined && { currentTs: object.currentTs }),
    ...(object.marketInfo?.segmentStatus && { segmentStatus: object.marketInfo.segmentStatus }),
  };
}
