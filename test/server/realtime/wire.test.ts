import { expect } from 'chai';
import { Decoder, Encoder, PacketType, type Packet } from 'socket.io-parser';
import { livePathParser, preEncoded } from '../../../server/src/realtime/wire.ts';

const message = {
  at: 1_780_000_000_123,
  quotes: [
    {
      symbol: 'M&M',
      exchange: 'NSE',
      ltp: 3012.45,
      prevClose: null,
      change: -12.5,
      changePercent: -0.41,
      asOf: 1_780_000_000_000,
      delayMinutes: 15,
    },
    {
      symbol: 'SIMCA',
      exchange: 'NSE',
      ltp: 120.05,
      prevClose: 118,
      change: 2.05,
      changePercent: 1.74,
      asOf: 1_779_999_000_000,
      delayMinutes: 15,
      stale: true,
      unavailable: true,
    },
  ],
};

describe('realtime: the live-path packet encoder', () => {
  const ours = new livePathParser.Encoder();
  const stock = new Encoder();

  it('puts a pre-encoded payload on the wire byte for byte as the default encoder would', () => {
    const encoded = ours.encode({
      type: PacketType.EVENT,
      nsp: '/',
      data: ['quotes', preEncoded(JSON.stringify(message))],
    });
    const expected = stock.encode({ type: PacketType.EVENT, nsp: '/', data: ['quotes', message] });
    expect(encoded).to.deep.equal(expected);

    // And a client's default decoder reads the same object back.
    const decoder = new Decoder();
    let decoded: Packet | undefined;
    decoder.on('decoded', (packet: Packet) => (decoded = packet));
    decoder.add(encoded[0] as string);
    expect(decoded?.data).to.deep.equal(['quotes', message]);
  });

  it('encodes every other packet as the default encoder does', () => {
    const packets: Packet[] = [
      { type: PacketType.EVENT, nsp: '/', data: ['alert', { execution: { id: 'x' } }] },
      { type: PacketType.EVENT, nsp: '/', data: ['holdings:changed'] },
      { type: PacketType.EVENT, nsp: '/', id: 7, data: ['quotes', message] },
      { type: PacketType.EVENT, nsp: '/admin', data: ['quotes', message] },
      { type: PacketType.EVENT, nsp: '/', data: ['file', Buffer.from('abc')] },
      { type: PacketType.CONNECT, nsp: '/', data: { sid: 'abc' } },
      { type: PacketType.CONNECT_ERROR, nsp: '/', data: { message: 'unauthorized' } },
    ];
    for (const packet of packets)
      expect(ours.encode(packet), JSON.stringify(packet)).to.deep.equal(stock.encode(packet));
  });
});
