import { expect } from 'chai';
import { appSuite } from '../../helpers/app.ts';
import { request } from '../../helpers/http.ts';

describe('http: error envelope', () => {
  const { app } = appSuite();

  it('answers an unknown API path with a JSON 404 envelope', async () => {
    const res = await request(app.url, 'DELETE', '/api/auth/nowhere');
    expect(res.status).to.equal(404);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    expect(res.body).to.deep.equal({ success: false, error: 'Not found' });
  });

  it('answers a wrong method on a known path with a JSON 405 envelope and Allow', async () => {
    for (const [method, path, allow] of [
      ['GET', '/api/auth/login', 'POST'],
      ['PUT', '/api/auth/profile', 'HEAD, GET'],
      ['DELETE', '/api/events', 'POST'],
    ] as const) {
      const res = await request(app.url, method, path);
      expect(res.status, `${method} ${path}`).to.equal(405);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      expect(res.headers.get('allow')).to.equal(allow);
      expect(res.body.success).to.equal(false);
      expect(res.body.error).to.be.a('string').and.not.equal('');
    }
  });

  it('renders an unexpected 401 with a sentence and no stack', async () => {
    const res = await request(app.url, 'GET', '/api/auth/profile', undefined, { token: 'x.y.z' });
    expect(res.status).to.equal(401);
    expect(Object.keys(res.body).sort()).to.deep.equal(['error', 'success']);
    expect(res.body.error).to.not.match(/at |\.ts|jwt malformed/);
  });
});
