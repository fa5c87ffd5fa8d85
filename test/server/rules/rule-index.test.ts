import { randomUUID } from 'node:crypto';
import { EXCHANGES } from '@app/common/instruments/types';
import { instrumentKey, type Quote } from '@app/common/market/tick-batch';
import { round2 } from '@app/common/portfolio/position-math';
import { computeTriggerPrice, isCrossed, type ValueType } from '@app/common/rules/index';
import { expect } from 'chai';
import { RuleIndex, trailingLevel, type WatchEntry } from '../../../server/src/triggers/rule-index.ts';
import { parseUuid } from '../../../server/src/triggers/rule-store.ts';

/** The index's contract as plain objects (the engine's first design): what the typed one must match. */
class ReferenceIndex {
  readonly byId = new Map<string, WatchEntry>();

  replaceUser(userId: string, entries: WatchEntry[]) {
    const previous = new Map<string, WatchEntry>();
    for (const e of [...this.byId.values()])
      if (e.userId === userId) {
        previous.set(e.id, e);
        this.byId.delete(e.id);
      }
    for (const e of entries) this.byId.set(e.id, this.merge({ ...e }, previous.get(e.id)));
  }

  replaceAll(entries: WatchEntry[]) {
    const previous = new Map(this.byId);
    this.byId.clear();
    for (const e of entries) this.byId.set(e.id, this.merge({ ...e }, previous.get(e.id)));
  }

  removeIfVersion(id: string, version: number) {
    if (this.byId.get(id)?.version === version) this.byId.delete(id);
  }

  release(id: string, version: number) {
    const e = this.byId.get(id);
    if (e?.version === version) e.claiming = false;
  }

  scan(quotes: Quote[]) {
    const crossings: Array<{ id: string; ltp: number }> = [];
    const moved = new Set<string>();
    for (const q of quotes) {
      if (q.stale) continue;
      for (const e of this.byId.values()) {
        if (e.exchange !== q.exchange || e.symbol !== q.symbol || e.claiming) continue;
        if (e.peak !== null && q.ltp > e.peak) {
          e.peak = q.ltp;
          e.price = level(e);
          moved.add(e.id);
        }
        if (isCrossed(e, q.ltp)) {
          e.claiming = true;
          crossings.push({ id: e.id, ltp: q.ltp });
        }
      }
    }
    return { crossings, moved };
  }

  private merge(fresh: WatchEntry, old: WatchEntry | undefined): WatchEntry {
    if (!old || old.version !== fresh.version) return fresh;
    fresh.claiming = old.claiming;
    if (fresh.peak !== null && old.peak !== null && old.peak > fresh.peak) {
      fresh.peak = old.peak;
      fresh.price = level(fresh);
    }
    return fresh;
  }
}

const level = (e: WatchEntry) =>
  computeTriggerPrice({
    triggerType: 'TRAILING_STOP_LOSS',
    valueType: e.valueType ?? 'PERCENT',
    triggerValue: e.value,
    referencePrice: e.peak!,
    peakPrice: e.peak,
  });

/** A small seeded generator, so a failure replays. */
function generator(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYMBOLS = ['INFY', 'TCS', 'SBIN', 'RELIANCE', 'ITC'];

function randomEntry(r: () => number, userId: string, id: string = randomUUID()): WatchEntry {
  const symbol = SYMBOLS[Math.floor(r() * SYMBOLS.length)]!;
  const exchange = r() < 0.8 ? 'NSE' : 'BSE';
  const base = 100 + Math.floor(r() * 5) * 10;
  const pick = r();
  const version = 1000 + Math.floor(r() * 3);
  const common = {
    id,
    userId,
    key: instrumentKey(exchange, symbol),
    symbol,
    exchange,
    version,
    claiming: false,
  } as const;
  if (pick < 0.2) {
    const direction = r() < 0.5 ? 'above' : 'below';
    const price = round2(base * (0.95 + r() * 0.1));
    return {
      ...common,
      kind: 'alert',
      triggerType: direction === 'above' ? 'PRICE_ABOVE' : 'PRICE_BELOW',
      direction,
      price,
      valueType: null,
      value: price,
      peak: null,
    };
  }
  const triggerType = pick < 0.45 ? 'FIXED_STOP_LOSS' : pick < 0.75 ? 'TRAILING_STOP_LOSS' : 'TAKE_PROFIT';
  const valueType: ValueType = r() < 0.7 ? 'PERCENT' : 'ABSOLUTE';
  const value = valueType === 'PERCENT' ? round2(1 + r() * 9) : round2(1 + r() * 9);
  const peak = triggerType === 'TRAILING_STOP_LOSS' ? round2(base * (1 + r() * 0.05)) : null;
  if (r() < 0.15) {
    // A fired rule waiting to re-arm: watched the other way, at its re-arm price, with no peak.
    const takeProfit = triggerType === 'TAKE_PROFIT';
    return {
      ...common,
      kind: 'rearm',
      triggerType,
      direction: takeProfit ? 'below' : 'above',
      price: round2(base * (takeProfit ? 1.07 : 0.97)),
      valueType,
      value,
      peak: null,
    };
  }
  return {
    ...common,
    kind: 'rule',
    triggerType,
    direction: triggerType === 'TAKE_PROFIT' ? 'above' : 'below',
    price: computeTriggerPrice({
      triggerType,
      valueType,
      triggerValue: value,
      referencePrice: base,
      peakPrice: peak,
    }),
    valueType,
    value,
    peak,
  };
}

function batch(r: () => number): Quote[] {
  return SYMBOLS.flatMap((symbol) =>
    EXCHANGES.filter(() => r() < 0.8).map((exchange) => ({
      symbol,
      exchange,
      ltp: round2((100 + Math.floor(r() * 5) * 10) * (0.9 + r() * 0.2)),
      prevClose: 100,
      change: 0,
      changePercent: 0,
      asOf: Date.now(),
      delayMinutes: 0,
      stale: r() < 0.05,
    })),
  );
}

const sortById = (entries: WatchEntry[]) => [...entries].sort((a, b) => (a.id < b.id ? -1 : 1));

describe('rules: the in-memory index', () => {
  it('evaluates, reloads, claims and releases exactly as the plain-object index does', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const r = generator(seed);
      const index = new RuleIndex();
      const reference = new ReferenceIndex();
      const users = Array.from({ length: 6 }, () => randomUUID());
      let all = Array.from({ length: 60 }, () => randomEntry(r, users[Math.floor(r() * users.length)]!));
      index.replaceAll(all);
      reference.replaceAll(all);
      for (let step = 0; step < 60; step++) {
        const op = r();
        if (op < 0.4) {
          const quotes = batch(r);
          const got = index.scan(quotes);
          const want = reference.scan(quotes);
          expect(
            got.crossings.map((c) => ({ id: c.entry.id, ltp: c.ltp })).sort((a, b) => (a.id < b.id ? -1 : 1)),
            `seed ${seed} step ${step}: crossings`,
          ).to.deep.equal(want.crossings.sort((a, b) => (a.id < b.id ? -1 : 1)));
          expect(new Set(index.entriesOf(got.moved).map((e) => e.id)), `seed ${seed}: moved`).to.deep.equal(
            want.moved,
          );
          // Each claim succeeds (removed), fails (released) or is still in flight.
          for (const c of got.crossings) {
            const outcome = r();
            if (outcome < 0.5) {
              index.removeIfVersion(c.entry.id, c.entry.version);
              reference.removeIfVersion(c.entry.id, c.entry.version);
            } else if (outcome < 0.75) {
              index.release(c.entry.id, c.entry.version);
              reference.release(c.entry.id, c.entry.version);
            }
          }
        } else if (op < 0.7) {
          // A user's rules reloaded: some kept (same or a new version), some gone, some new.
          const user = users[Math.floor(r() * users.length)]!;
          const fresh = [...reference.byId.values()]
            .filter((e) => e.userId === user && r() < 0.8)
            .map((e) =>
              r() < 0.3
                ? randomEntry(r, user, e.id)
                : { ...e, claiming: false, peak: e.peak === null ? null : e.peak - 1 },
            )
            .map((e) => (e.peak !== null ? { ...e, price: level(e) } : e));
          for (let n = Math.floor(r() * 4); n > 0; n--) fresh.push(randomEntry(r, user));
          index.replaceUser(user, fresh);
          reference.replaceUser(user, fresh);
        } else if (op < 0.75) {
          all = [...reference.byId.values()].map((e) => ({ ...e, claiming: false }));
          all.push(randomEntry(r, users[0]!));
          index.replaceAll(all);
          reference.replaceAll(all);
        } else {
          const ids = [...reference.byId.keys()];
          const id = ids[Math.floor(r() * ids.length)];
          if (id) {
            const version = r() < 0.5 ? reference.byId.get(id)!.version : 1;
            index.removeIfVersion(id, version);
            reference.removeIfVersion(id, version);
          }
        }
        const want = sortById([...reference.byId.values()]);
        expect(index.size, `seed ${seed} step ${step}: size`).to.equal(want.length);
        expect(sortById(want.map((e) => index.get(e.id)!)), `seed ${seed} step ${step}`).to.deep.equal(want);
        expect(index.count('alert')).to.equal(want.filter((e) => e.kind === 'alert').length);
        expect(index.instruments).to.equal(new Set(want.map((e) => e.key)).size);
      }
    }
  });

  it('holds ids as numbers and gives them back as they came', () => {
    const index = new RuleIndex();
    const r = generator(7);
    const entries = Array.from({ length: 2000 }, () => randomEntry(r, randomUUID()));
    index.replaceAll(entries);
    for (const e of entries) expect(index.get(e.id)?.id).to.equal(e.id);
    expect(index.get(randomUUID())).to.equal(undefined);
    for (const e of entries.slice(0, 1500)) index.removeIfVersion(e.id, e.version);
    expect(index.size).to.equal(500);
    for (const e of entries.slice(1500)) expect(index.get(e.id)?.userId).to.equal(e.userId);
    expect(() => parseUuid('NOT-A-UUID', new Uint32Array(4))).to.throw();
    expect(() => parseUuid(randomUUID().toUpperCase(), new Uint32Array(4))).to.throw();
  });

  it('computes trailing levels as the shared trigger math does, half paise included', () => {
    const r = generator(11);
    const cases: Array<[ValueType, number, number]> = [
      ['ABSOLUTE', 1.015, 0.01],
      ['ABSOLUTE', 2.675, 0.001],
      ['PERCENT', 100.5, 0.5],
      ['PERCENT', 1.005, 0],
      ['PERCENT', 12345678.91, 7.5],
    ];
    for (let i = 0; i < 200_000; i++) {
      const valueType: ValueType = r() < 0.5 ? 'PERCENT' : 'ABSOLUTE';
      cases.push([valueType, round2(r() * (r() < 0.5 ? 100 : 20_000)), round2(r() * 25)]);
    }
    for (const [valueType, peak, value] of cases)
      expect(trailingLevel({ valueType, value, peak }), `${valueType} ${peak} ${value}`).to.equal(
        computeTriggerPrice({
          triggerType: 'TRAILING_STOP_LOSS',
          valueType,
          triggerValue: value,
          referencePrice: peak,
          peakPrice: peak,
        }),
      );
  });
});
