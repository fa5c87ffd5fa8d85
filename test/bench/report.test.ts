import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { BENCHMARKS } from '../../bench/benchmarks/index.ts';
import { writeReport } from '../../bench/lib/report.ts';
import { result } from '../../bench/lib/types.ts';

describe('bench results: latest.json and latest.md', () => {
  it('writes the lines as a JSON array and as a table with the machine', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bench-report-'));
    try {
      const lines = [
        result({
          id: 'X1',
          name: 'a | b',
          value: 30,
          unit: 'ms',
          baseline: 20,
          target: '< 50 ms',
          pass: true,
        }),
        result({
          id: 'X2',
          name: 'none',
          value: null,
          unit: 'ms',
          baseline: null,
          target: 'n/a',
          pass: false,
        }),
      ];
      expect(lines[0]!.ratio).to.equal(1.5);
      const written = await writeReport(dir, lines, ['a note']);
      expect(JSON.parse(await readFile(written.json, 'utf8'))).to.deep.equal(lines);
      const md = await readFile(written.md, 'utf8');
      expect(md).to.include('| X1 | a \\| b | 30 ms | 20 ms | 1.5 | < 50 ms | yes |');
      expect(md).to.include('| X2 | none | — | — | — | n/a | **NO** |');
      expect(md).to.match(/\d+ cores \(.+\) · \d+ GiB · Node v\d+/);
      expect(md).to.include('- a note');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a run of some benchmarks replaces their lines and notes and keeps the others’, in run order', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'bench-report-'));
    const line = (id: string, value: number) =>
      result({ id, name: id, value, unit: 'ms', baseline: null, target: 't', pass: true });
    try {
      const order = ['B1', 'B2', 'B8'];
      await writeReport(
        dir,
        [line('B1-p99', 1), line('B2-sockets', 2), line('B8-lost-1', 3)],
        ['B1: old one', 'B2 app ramp: old two', 'B8: old eight'],
      );
      const written = await writeReport(
        dir,
        [line('B8-lost-1', 0), line('B8-lost-2', 0)],
        ['B8: new eight'],
        undefined,
        {
          ran: ['B8'],
          order,
        },
      );
      const json = JSON.parse(await readFile(written.json, 'utf8')) as Array<{ id: string; value: number }>;
      expect(json.map((r) => [r.id, r.value])).to.deep.equal([
        ['B1-p99', 1],
        ['B2-sockets', 2],
        ['B8-lost-1', 0],
        ['B8-lost-2', 0],
      ]);
      const md = await readFile(written.md, 'utf8');
      expect(md).to.include('- B1: old one');
      expect(md).to.include('- B2 app ramp: old two');
      expect(md).to.include('- B8: new eight');
      expect(md).not.to.include('old eight');
      expect(md).to.match(/- B1, B2: kept from the run of \d{4}-/);
      expect(md.indexOf('B1: old one')).to.be.lessThan(md.indexOf('B8: new eight'));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('registers each benchmark once, by id', () => {
    const ids = BENCHMARKS.map((b) => b.id);
    expect(ids).to.deep.equal([...new Set(ids)]);
    for (const id of ids) expect(id).to.match(/^B\d+$/);
  });
});
