/**
 * A local Angel One SmartWebSocket 2.0 (smartapi docs, WebSocket 2.0 page), byte for byte:
 * header auth (`Authorization` JWT, `x-api-key`, `x-client-code`, `x-feed-token`), a 401 with
 * `x-error-message` on the upgrade when one is wrong; JSON subscribe/unsubscribe (action 1/0,
 * `tokenList` by exchange type), `E1002` past 1,000 tokens; text `ping` answered `pong`;
 * little-endian LTP packets (51 bytes: mode, exchange type, 25-byte token, int64 sequence,
 * int64 exchange time in ms, int64 LTP in paise).
 */
import type { WebSocket } from 'ws';
import { startWsFake, type WsFake } from './dhan-feed.ts';

/** A mode-1 (LTP) packet as Angel sends it. */
export function angelLtpPacket(
  exchangeType: number,
  token: string,
  ltpPaise: bigint,
  exchangeTimeMs: number,
  sequence = 1n,
): Buffer {
  const packet = Buffer.alloc(51);
  packet.writeUInt8(1, 0);
  packet.writeUInt8(exchangeType, 1);
  packet.write(token, 2, 25, 'ascii');
  packet.writeBigInt64LE(sequence, 27);
  packet.writeBigInt64LE(BigInt(exchangeTimeMs), 35);
  packet.writeBigInt64LE(ltpPaise, 43);
  return packet;
}

export interface FakeAngelFeed extends WsFake {
  url: string;
  /** The credentials it lets in. */
  valid: { jwt: string; apiKey: string; clientCode: string; feedToken: string };
  subscribed(): Set<string>;
  /** Text frames received besides subscriptions (`ping`). */
  pings: number;
  tick(exchangeType: number, token: string, ltpPaise: bigint, exchangeTimeMs: number): void;
}

/** Starts the SmartStream fake. */
export async function startFakeAngelFeed(): Promise<FakeAngelFeed> {
  const valid = { jwt: 'jwt-1', apiKey: 'key-1', clientCode: 'A123456', feedToken: 'feed-1' };
  const held = new Map<WebSocket, Set<string>>();
  const state = { pings: 0 };
  const fake = await startWsFake({
    refuse(req) {
      const h = req.headers;
      const ok =
        h.authorization?.replace(/^Bearer /, '') === valid.jwt &&
        h['x-api-key'] === valid.apiKey &&
        h['x-client-code'] === valid.clientCode &&
        h['x-feed-token'] === valid.feedToken;
      return ok
        ? undefined
        : {
            status: 401,
            headers: {
              'x-error-message': 'Invalid Header - Invalid Auth token|Client Code|API Key|Feed Token',
            },
          };
    },
    onConnection(socket) {
      const keys = new Set<string>();
      held.set(socket, keys);
      socket.on('close', () => held.delete(socket));
      socket.on('message', (data, isBinary) => {
        const text = String(data);
        if (!isBinary && text === 'ping') {
          state.pings++;
          socket.send('pong');
          return;
        }
        const message = JSON.parse(text) as {
          correlationID: string;
          action: number;
          params: { mode: number; tokenList: Array<{ exchangeType: number; tokens: string[] }> };
        };
        for (const { exchangeType, tokens } of message.params.tokenList)
          for (const token of tokens) {
            const key = `${exchangeType}|${token}`;
            if (message.action === 0) keys.delete(key);
            else if (keys.size >= 1000)
              socket.send(
                JSON.stringify({
                  correlationID: message.correlationID,
                  errorCode: 'E1002',
                  errorMessage: 'Invalid Request. Subscription Limit Exceeded',
                }),
              );
            else keys.add(key);
          }
      });
    },
  });
  return {
    ...fake,
    url: `ws://127.0.0.1:${fake.port}/smart-stream`,
    valid,
    get pings() {
      return state.pings;
    },
    subscribed: () => new Set([...held.values()].flatMap((keys) => [...keys])),
    tick(exchangeType, token, ltpPaise, exchangeTimeMs) {
      for (const [socket, keys] of held)
        if (keys.has(`${exchangeType}|${token}`))
          socket.send(angelLtpPacket(exchangeType, token, ltpPaise, exchangeTimeMs));
    },
  };
}
