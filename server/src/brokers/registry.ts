/**
 * The connectors of the brokers this server is configured for (docs/holdings.md#connect-a-broker):
 * one row per broker, each building its connector from its app keys in `config.brokers`.
 */
import type { Config } from '@app/config';
import type { BrokerId } from '@app/common/api/brokers';
import type { BrokerConnector } from './connector.ts';
import type { ConnectorOptions } from './broker-call.ts';
import { kiteConnector } from './kite/connector.ts';
import { createUpstoxConnector } from './upstox/index.ts';
import { createAngelOneConnector } from './angelone/index.ts';
import { createDhanConnector } from './dhan/index.ts';

/** The connectors of the configured brokers, by id; a broker without its keys has none. */
export function brokerConnectors(
  config: Config,
  now: () => Date = () => new Date(),
): Map<BrokerId, BrokerConnector> {
  const opts: ConnectorOptions = { timeoutMs: config.brokers.timeoutMs, now };
  const b = config.brokers;
  const rows: [BrokerId, BrokerConnector | null][] = [
    ['kite', b.kite ? kiteConnector(b.kite, opts) : null],
    ['upstox', b.upstox ? createUpstoxConnector(b.upstox, opts) : null],
    ['angelone', b.angelone ? createAngelOneConnector(b.angelone, opts) : null],
    // Dhan needs no app keys: investors paste a token from web.dhan.co.
    ['dhan', createDhanConnector(b.dhan, opts)],
  ];
  return new Map(rows.filter((r): r is [BrokerId, BrokerConnector] => r[1] !== null));
}
