/**
 * Crossings waiting to be claimed, in lanes: a user's crossings always go to the same lane, so
 * they are claimed in crossing order (the quota counts them in that order) and two lanes never
 * lock the same user. Each lane claims its queue in chunks, one transaction at a time, so claims
 * hold at most `lanes` database connections however many crossings a batch brings.
 */
import type { Crossing } from './rule-index.ts';

/** Claims one chunk; never rejects (a failed chunk is released by the caller and logged). */
export type ClaimChunk = (chunk: Crossing[]) => Promise<void>;

class Lane {
  private queue: Crossing[] = [];
  private head = 0;
  private pushed = 0;
  private done = 0;
  private waiters: Array<{ upTo: number; resolve: () => void }> = [];
  private running = false;

  constructor(
    private readonly chunkSize: number,
    private readonly claim: ClaimChunk,
  ) {}

  get waiting(): number {
    return this.pushed - this.done;
  }

  push(crossings: Crossing[]): Promise<void> {
    for (const c of crossings) this.queue.push(c);
    this.pushed += crossings.length;
    const upTo = this.pushed;
    if (upTo <= this.done) return Promise.resolve();
    const settled = new Promise<void>((resolve) => this.waiters.push({ upTo, resolve }));
    if (!this.running) void this.run();
    return settled;
  }

  private async run(): Promise<void> {
    this.running = true;
    while (this.head < this.queue.length) {
      const chunk = this.queue.slice(this.head, this.head + this.chunkSize);
      this.head += chunk.length;
      await this.claim(chunk);
      this.done += chunk.length;
      while (this.waiters.length > 0 && this.waiters[0]!.upTo <= this.done) this.waiters.shift()!.resolve();
      if (this.head === this.queue.length) {
        this.queue = [];
        this.head = 0;
      }
    }
    this.running = false;
  }
}

/** A user's lane: a hash of the id (FNV-1a), stable across batches. */
function laneOf(userId: string, lanes: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < userId.length; i++) h = Math.imul(h ^ userId.charCodeAt(i), 0x01000193);
  return (h >>> 0) % lanes;
}

export class ClaimLanes {
  private readonly lanes: Lane[];

  constructor(lanes: number, chunkSize: number, claim: ClaimChunk) {
    const n = Math.max(1, Math.floor(lanes));
    const size = Math.max(1, Math.floor(chunkSize));
    this.lanes = Array.from({ length: n }, () => new Lane(size, claim));
  }

  /** Crossings queued and not yet claimed. */
  get waiting(): number {
    return this.lanes.reduce((n, lane) => n + lane.waiting, 0);
  }

  /** Queues crossings (in crossing order); resolves when every one of them was claimed or given up. */
  push(crossings: readonly Crossing[]): Promise<void> {
    if (crossings.length === 0) return Promise.resolve();
    const split: Crossing[][] = this.lanes.map(() => []);
    for (const c of crossings) split[laneOf(c.entry.userId, this.lanes.length)]!.push(c);
    return Promise.all(split.flatMap((cs, i) => (cs.length ? [this.lanes[i]!.push(cs)] : []))).then(
      () => undefined,
    );
  }

  /** Resolves when everything queued so far is settled. */
  idle(): Promise<void> {
    return Promise.all(this.lanes.map((lane) => lane.push([]))).then(() => undefined);
  }
}
