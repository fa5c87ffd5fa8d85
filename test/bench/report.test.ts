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

  it('registers each benchmark once, by id', () => {
    const ids = BENCHMARKS.map((b) => b.id);
    expect(ids).to.deep.equal([...new Set(ids)]);
    for (const id of ids) expect(id).to.match(/^B\d+$/);
  });
});
