/**
 * Rate limits answer 429 with Retry-After. Holdings uploads: 30 a minute per user (this file);
 * sign-in, refresh and their Redis-shared counts are in test/server/auth/rate-limit.test.ts, the
 * verification resend (once a minute) in test/server/endpoints/verification.test.ts.
 */
import { expect } from 'chai';
import { appSuite } from '../helpers/app.ts';
import { request } from '../helpers/http.ts';
import { signIn } from '../helpers/users.ts';

const UPLOAD_LIMIT = 30;

describe('security: rate limit on holdings uploads', () => {
  const { app } = appSuite({ embeddedStreamer: false });

  it('answers 429 with Retry-After past 30 uploads a minute, per user and whatever the address', async () => {
    const [user, other] = [await signIn(app), await signIn(app)];
    const upload = (token: string, i: number) =>
      request(
        app.url,
        'POST',
        '/api/holdings/upload-csv',
        { csvData: 'Symbol,Quantity,Buy Price\nTCS,1,3000\n', dry_run: true },
        // A new address each time: the limit follows the account, not the connection.
        { token, headers: { 'x-forwarded-for': `198.51.100.${i % 250}` } },
      );
    for (let i = 0; i < UPLOAD_LIMIT; i++)
      expect((await upload(user.token, i)).status, `upload ${i + 1}`).to.equal(200);
    const refused = await upload(user.token, UPLOAD_LIMIT);
    expect(refused.status).to.equal(429);
    expect(refused.body.success).to.equal(false);
    expect(refused.body.error).to.be.a('string').and.not.equal('');
    expect(Number(refused.headers.get('retry-after')))
      .to.be.at.least(1)
      .and.at.most(60);
    // Invalid files count too: the limit is checked before the body is.
    expect(
      (await request(app.url, 'POST', '/api/holdings/upload-csv', { csvData: '' }, { token: user.token }))
        .status,
    ).to.equal(429);
    expect((await upload(other.token, 0)).status, 'another user is unaffected').to.equal(200);
  });
});
