/**
 * The connectors of the brokers this server is configured for (docs/holdings.md#connect-a-broker):
 * one row per broker, each building its connector from its app keys in `config.brokers`.
 */
import type { Config } from '@app/config';
import type { BrokerId } from '@app/common/api/brokers';
import type { BrokerConnector } from './connector.ts';
import type { FetchImpl } from './http.ts';
import { kiteConnector } from './kite/connector.ts';

/** What every connector is built with: the `fetch` to call through and the app's clock. */
export interface ConnectorOptions {
  fetchImpl: FetchImpl;
  timeoutMs: number;
  now: () => Date;
}

/** The connectors of the configured brokers, by id; a broker without its keys has none. */
export function brokerConnectors(
  config: Config,
  fetchImpl: FetchImpl = fetch,
  now: () => Date = () => new Date(),
): Map<BrokerId, BrokerConnector> {
  const opts: ConnectorOptions = { fetchImpl, timeoutMs: config.brokers.timeoutMs, now };
  const b = config.brokers;
  const rows: [BrokerId, BrokerConnector | null][] = [
    ['kite', b.kite ? kiteConnector(b.kite, opts) : null],
    // upstox
    // angelone
    // dhan
  ];
  return new Map(rows.filter((r): r is [BrokerId, BrokerConnector] => r[1] !== null));
}
