/**
 * Hostile input, property-based (fast-check): the importer and every route never answer 5xx, a
 * refused request stores nothing, nothing is stored as 0, and errors are sentences. The inputs
 * are the classes an attacker's fuzzing found 500s with (issue 15): control characters, numbers
 * from 1e-20 to 1e308 and as text (hex, exponents), far dates, deep and wide bodies.
 */
import { parseHoldingsCsv } from '@app/common/holdings/import';
import { expect } from 'chai';
import fc from 'fast-check';
import { appSuite } from '../helpers/app.ts';
import { apiClient, request } from '../helpers/http.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { publishPrices } from '../server/rules/support.ts';
import { listApiRoutes } from './route-list.ts';
import { controlText, hostileNumberText, toJsonText } from './support/hostile.ts';
import {
  ensureSeed,
  fuzzedBody,
  fuzzedPath,
  mutation,
  ownedRows,
  zeroAmounts,
} from './support/route-inputs.ts';

/** CSV-shaped text: headers the importers know, cells with numbers, quotes, signs and junk. */
const cell = fc.oneof(
  fc.constantFrom(
    'Symbol',
    'Qty.',
    'Avg. cost',
    'Quantity',
    'Buy Price',
    'Exchange',
    'ISIN',
    'Name',
    'Total',
    '',
  ),
  fc.constantFrom(
    'RELIANCE',
    'TCS',
    'IDEA-BE',
    'NSE',
    'BSE',
    'INE040A01034',
    '₹1,23,456.50',
    '-5',
    '0',
    '1e309',
    '=cmd()',
  ),
  fc.float({ noNaN: false }).map(String),
  fc.string({ maxLength: 12 }),
  hostileNumberText,
  controlText,
);
const csvText = fc
  .array(fc.array(cell, { minLength: 1, maxLength: 6 }), { minLength: 0, maxLength: 12 })
  .chain((rows) =>
    fc
      .constantFrom(',', ';', '\t')
      .map((sep) =>
        rows
          .map((r) => r.map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c)).join(sep))
          .join('\n'),
      ),
  );

/** Inputs tried over the routes; FUZZ_RUNS raises it for a longer hunt. */
const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 5000);

describe('security: property-based fuzzing of importers and JSON routes', function () {
  // A hang guard, not a speed target: beside three busy workers a run took more than 120 s.
  this.timeout(300_000);
  // No streamer: a price moving mid-run would change a rule between two snapshots.
  const { app } = appSuite({ embeddedStreamer: false });
  let user: SignedInUser;
  before(async () => {
    await publishPrices(app, { ITC: 400, TCS: 3200 });
    user = await signIn(app);
  });

  it('the CSV importer never throws and always gives rows or a sentence', () => {
    fc.assert(
      fc.property(fc.oneof(csvText, fc.string({ maxLength: 400 })), (text) => {
        const result = parseHoldingsCsv(text);
        if (result.ok) {
          for (const row of result.rows) {
            expect(row.quantity).to.be.greaterThan(0);
            expect(Number.isFinite(row.averagePrice) && row.averagePrice > 0).to.equal(true);
          }
        } else {
          expect(result.error).to.be.a('string').and.not.equal('');
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('uploads never 5xx, and a rejected upload changes nothing', async () => {
    const api = apiClient(app.url);
    await api.post(
      '/api/holdings/manual',
      { symbol: 'ITC', exchange: 'NSE', quantity: 10, average_price: 400 },
      user.token,
    );
    const snapshot = async () =>
      JSON.stringify(
        (
          (await api.get<{ id: string; quantity: number }[]>('/api/holdings', user.token)).body.data ?? []
        ).map((h) => [h.id, h.quantity]),
      );
    await fc.assert(
      fc.asyncProperty(csvText, async (csvData) => {
        const before = await snapshot();
        const res = await request(
          app.url,
          'POST',
          '/api/holdings/upload-csv',
          { csvData },
          {
            token: user.token,
            headers: {
              'x-forwarded-for': `10.9.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
            },
          },
        );
        expect(res.status, JSON.stringify(res.body)).to.be.oneOf([201, 400, 429]);
        if (res.status !== 201) {
          expect(res.body.error).to.be.a('string').and.not.equal('');
          expect(await snapshot()).to.equal(before);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('no route answers 5xx to hostile input, a refused one writes nothing, nothing is stored as 0', async () => {
    const routes = listApiRoutes(app.runtime);
    // Three users take turns, so the per-user write limits leave most requests to the validators.
    const owners = await Promise.all([1, 2, 3].map(() => signIn(app, { tier: 'advanced' })));
    const seeds = await Promise.all(owners.map((owner) => ensureSeed(app, owner, {})));
    const counts = { tried: 0, ok: 0, refused: 0, rateLimited: 0, serverErrors: 0 };
    const failures: string[] = [];
    const zeroRows = new Set<string>();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), mutation, async (route, m) => {
        const turn = counts.tried % owners.length;
        const owner = owners[turn]!;
        const path = fuzzedPath(route, m, seeds[turn]!);
        const raw =
          route.method === 'GET' || route.method === 'DELETE' ? undefined : toJsonText(fuzzedBody(route, m));
        const before = await ownedRows(app, owner.id);
        const res = await request(app.url, route.method, path, undefined, {
          // Signing out everywhere would end the run's session: that route is tried signed out.
          token: route.path.endsWith('/logout-all') ? undefined : owner.token,
          raw,
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.7.${counts.tried % 250}.1` },
        });
        counts.tried += 1;
        const shown = `${route.method} ${path.slice(0, 100)} ${(raw ?? '').slice(0, 100)} → ${res.status} ${res.body.error}`;
        // 501 is "Broker API connection is coming soon" (docs/holdings.md, Routes), not a failure.
        if (res.status >= 500 && res.status !== 501) {
          counts.serverErrors += 1;
          failures.push(shown);
        } else if (res.status >= 400) {
          counts[res.status === 429 ? 'rateLimited' : 'refused'] += 1;
          expect(res.body.error, shown).to.be.a('string').and.not.equal('');
          if ((await ownedRows(app, owner.id)) !== before) failures.push(`partial write: ${shown}`);
        } else {
          counts.ok += 1;
          if (route.method === 'GET') return;
          const zeros = (await zeroAmounts(app, owner.id)).filter((row) => !zeroRows.has(row));
          for (const row of zeros) zeroRows.add(row);
          if (zeros.length > 0) failures.push(`stored as 0 (${zeros.join(', ')}): ${shown}`);
          seeds[turn] = await ensureSeed(app, owner, seeds[turn]!);
        }
      }),
      { numRuns: FUZZ_RUNS },
    );
    console.log(
      `      fuzz: ${counts.tried} inputs over ${routes.length} routes: ${counts.ok} accepted, ${counts.refused} refused, ` +
        `${counts.rateLimited} rate-limited, ${counts.serverErrors} answered 5xx, ${failures.length} failures`,
    );
    expect(failures.slice(0, 15), `${failures.length} failures`).to.deep.equal([]);
  });

  it('refuses a 10 MB upload with 413 and stores nothing', async () => {
    const row = 'RELIANCE,1,100\n';
    const csvData = `Symbol,Quantity,Buy Price\n${row.repeat(Math.ceil((10 * 1024 * 1024) / row.length))}`;
    const res = await apiClient(app.url).post('/api/holdings/upload-csv', { csvData }, user.token);
    expect(res.status).to.equal(413);
    expect(res.body.error).to.be.a('string');
  });
});
