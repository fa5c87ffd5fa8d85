/**
 * The connection ceiling sits below the process's file descriptor limit, so connections never
 * take the descriptors the server needs for its database, Redis and files (the flood itself:
 * test/security/connection-limits.test.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import {
  descriptorLimit,
  maxConnections,
  RESERVED_DESCRIPTORS,
} from '../../../server/src/http/connections.ts';
import { appSuite } from '../../helpers/app.ts';

/** A /proc/<pid>/limits file as Linux writes it in `dir`, with `openFiles` as that line's limits. */
function limitsFile(dir: string, openFiles: string): string {
  const file = path.join(dir, `limits-${openFiles.trim().split(/\s+/)[0]}`);
  writeFileSync(
    file,
    [
      'Limit                     Soft Limit           Hard Limit           Units     ',
      'Max processes             63304                63304                processes ',
      `Max open files            ${openFiles}                files     `,
      'Max locked memory         8388608              8388608              bytes     ',
    ].join('\n'),
  );
  return file;
}

describe('http: the connection ceiling', () => {
  it('reads the soft limit on open files', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'limits-'));
    try {
      expect(descriptorLimit(limitsFile(dir, '20000                1048576             '))).to.equal(20_000);
      expect(descriptorLimit(limitsFile(dir, 'unlimited            unlimited           '))).to.equal(
        undefined,
      );
      expect(descriptorLimit('/nonexistent/limits')).to.equal(undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('defaults to the descriptor limit less the reserve; HTTP_MAX_CONNECTIONS overrides it', () => {
    expect(maxConnections({ HTTP_MAX_CONNECTIONS: undefined }, 20_000)).to.equal(
      20_000 - RESERVED_DESCRIPTORS,
    );
    expect(maxConnections({ HTTP_MAX_CONNECTIONS: 5000 }, 20_000)).to.equal(5000);
    expect(maxConnections({ HTTP_MAX_CONNECTIONS: undefined }, undefined)).to.equal(10_000);
  });

  describe('a booted server', () => {
    const { app } = appSuite();
    it('refuses connections before it runs out of descriptors', () => {
      const limit = descriptorLimit() ?? Infinity;
      expect(app.runtime.http.maxConnections).to.be.below(limit - RESERVED_DESCRIPTORS + 1);
    });
  });
});
