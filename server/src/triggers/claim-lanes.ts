/**
 * Crossings waiting to be claimed, in lanes: a user's crossings always go to the same lane, so
 * they are claimed in crossing order (the quota counts them in that order) and two lanes never
 * lock the same user. Each lane claims its queue in chunks, one transaction at a time, so claims
 * hold at most `lanes` database connections however many crossings a batch brings.
 *
 * A user's crossings of one stock on one side of the price are one notice (issue #28), told in
 * one chunk: a batch's crossings are queued with each notice's members together (at its first
 * member's place, so notices keep their crossing order), and a chunk never ends inside a notice.
 * Users take turns: a batch's notices are queued one per user in turn (each user's in their
 * crossing order), so one user's thousands of crossings never queue ahead of every other
 * user's in the lane.
 */
import { noticeKey } from '@app/common/rules/index';
import type { Crossing } from './rule-index.ts';

const keyOf = (c: Crossing) => noticeKey(c.entry);

/**
 * The crossings with each notice's members together, notices in the order they first cross
 * within each user, users taking turns: the first notice of every user, then the second, ...
 */
function fairOrder(crossings: readonly Crossing[]): Crossing[] {
  const notices = new Map<string, Crossing[]>();
  const byUser = new Map<string, Crossing[][]>();
  for (const c of crossings) {
    const key = keyOf(c);
    const members = notices.get(key);
    if (members) {
      members.push(c);
      continue;
    }
    const notice = [c];
    notices.set(key, notice);
    const own = byUser.get(c.entry.userId);
    if (own) own.push(notice);
    else byUser.set(c.entry.userId, [notice]);
  }
  if (byUser.size <= 1 && notices.size === crossings.length) return [...crossings];
  // Each turn visits only the users with notices left, so the work is the notices, not users × turns.
  let queues = [...byUser.values()];
  const ordered: Crossing[] = [];
  for (let turn = 0; queues.length > 0; turn++) {
    for (const queue of queues) for (const c of queue[turn]!) ordered.push(c);
    queues = queues.filter((queue) => queue.length > turn + 1);
  }
  return ordered;
}

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
    for (const c of fairOrder(crossings)) this.queue.push(c);
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
      let end = Math.min(this.queue.length, this.head + this.chunkSize);
      while (end < this.queue.length && keyOf(this.queue[end]!) === keyOf(this.queue[end - 1]!)) end++;
      const chunk = this.queue.slice(this.head, end);
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
