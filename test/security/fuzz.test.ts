/**
 * Hostile input, property-based (fast-check): the importer and every JSON route never answer
 * 5xx, a rejected import stores nothing, and errors are sentences.
 */
import { parseHoldingsCsv } from '@app/common/holdings/import';
import { expect } from 'chai';
import fc from 'fast-check';
import { bootApp, type TestApp } from '../helpers/app.ts';
import { apiClient, request } from '../helpers/http.ts';
import { signIn, type SignedInUser } from '../helpers/users.ts';
import { listApiRoutes } from './route-list.ts';

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

describe('security: property-based fuzzing of importers and JSON routes', function () {
  this.timeout(120_000);
  let app: TestApp;
  let user: SignedInUser;
  before(async () => {
    app = await bootApp();
    user = await signIn(app);
  });
  after(() => app.close());

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

  it('every JSON route answers arbitrary bodies and queries without a 5xx', async () => {
    const routes = listApiRoutes(app.runtime.deps).filter((r) => !r.path.includes('/logout'));
    const failures: string[] = [];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.oneof(fc.jsonValue(), fc.object(), fc.string()),
        fc.dictionary(
          fc.constantFrom('query', 'limit', 'days', 'symbols', 'token', 'offset', 'start_date', 'to'),
          fc.string(),
        ),
        async (route, body, query) => {
          const path = route.path.replace(/:[a-zA-Z_]+/g, 'x') + `?${new URLSearchParams(query).toString()}`;
          const raw = typeof body === 'string' ? body : JSON.stringify(body);
          const res = await request(app.url, route.method, path, undefined, {
            token: user.token,
            raw: route.method === 'GET' || route.method === 'DELETE' ? undefined : raw,
            headers: {
              'content-type': 'application/json',
              'x-forwarded-for': `10.8.${Math.floor(Math.random() * 250)}.1`,
            },
          });
          // 501 is the spec's "Broker API connection is coming soon", not a failure.
          if (res.status >= 500 && res.status !== 501)
            failures.push(`${route.method} ${path} ${raw.slice(0, 80)} → ${res.status} ${res.body.error}`);
        },
      ),
      { numRuns: 400 },
    );
    expect(failures).to.deep.equal([]);
  });

  it('refuses a 10 MB upload with 413 and stores nothing', async () => {
    const row = 'RELIANCE,1,100\n';
    const csvData = `Symbol,Quantity,Buy Price\n${row.repeat(Math.ceil((10 * 1024 * 1024) / row.length))}`;
    const res = await apiClient(app.url).post('/api/holdings/upload-csv', { csvData }, user.token);
    expect(res.status).to.equal(413);
    expect(res.body.error).to.be.a('string');
  });
});
