import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { apiClient } from '../../helpers/http.ts';

describe('health and database checks', () => {
  const { app } = appSuite();

  it('reports the process healthy', async () => {
    const res = await apiClient(app.url).get('/api/health');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.include({ success: true });
  });

  it('reaches the database on /api/test-db and /api/ready', async () => {
    const api = apiClient(app.url);
    const db = await api.get<{ connected: boolean; database: string }>('/api/test-db');
    expect(db.status).to.equal(200);
    expect(db.body.data?.connected).to.equal(true);
    const ready = await api.get<{ database: boolean }>('/api/ready');
    expect(ready.status).to.equal(200);
    expect(ready.body.data?.database).to.equal(true);
  });

  it('answers unknown API paths with a 404 envelope', async () => {
    const res = await apiClient(app.url).get('/api/no-such-thing');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ success: false, error: 'Not found' });
  });
});
