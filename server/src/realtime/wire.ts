/**
 * Socket.IO's packet encoder with one shortcut for the live path: a payload serialised once per
 * tick batch (`preEncoded`) is spliced into the packet as it is, instead of being walked for
 * binary attachments and stringified again for every user. The bytes on the wire are exactly
 * socket.io-parser's (clients keep the default parser); every other packet is encoded by it.
 */
import { Decoder, Encoder, PacketType, type Packet } from 'socket.io-parser';

/** JSON text standing in for the value it encodes (see `preEncoded`). */
class PreEncodedJson {
  constructor(readonly json: string) {}
}

/**
 * Marks `json` (the JSON of a `T`) to be sent as it is. Typed as `T` so it can be passed to a
 * typed `emit`; only the encoder below looks inside, so use it only as an event's one argument.
 */
export function preEncoded<T>(json: string): T {
  return new PreEncodedJson(json) as unknown as T;
}

/** `emit(event, preEncoded(json))` to the default namespace, without an acknowledgement. */
function preEncodedEvent(packet: Packet): [string, PreEncodedJson] | undefined {
  const data: unknown = packet.data;
  if (packet.type !== PacketType.EVENT || packet.id != null || (packet.nsp && packet.nsp !== '/')) return;
  if (!Array.isArray(data) || data.length !== 2) return;
  const [event, payload] = data as [unknown, unknown];
  return typeof event === 'string' && payload instanceof PreEncodedJson ? [event, payload] : undefined;
}

class LivePathEncoder extends Encoder {
  override encode(packet: Packet): unknown[] {
    const event = preEncodedEvent(packet);
    if (!event) return super.encode(packet);
    return [`${PacketType.EVENT}[${JSON.stringify(event[0])},${event[1].json}]`];
  }
}

/** The `parser` option of the Socket.IO server. */
export const livePathParser = { Encoder: LivePathEncoder, Decoder };
