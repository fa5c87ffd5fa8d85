import { neutralizeCell } from '@app/common/holdings/export';
import { expect } from 'chai';
import { appSuite } from '../helpers/app.ts';
import { apiClient, request } from '../helpers/http.ts';
import { signIn } from '../helpers/users.ts';

describe('security: formulas are neutralised in exports', () => {
  const { app } = appSuite();

  it('prefixes cells starting with =, +, -, @ with a quote and leaves others alone', () => {
    for (const bad of ['=1+1', '+91', '-2+3', '@SUM(A1)', '\t=x'])
      expect(neutralizeCell(bad)).to.equal(`'${bad}`);
    for (const fine of ['RELIANCE', 'M&M', 'Zerodha · AB1234', ''])
      expect(neutralizeCell(fine)).to.equal(fine);
  });

  it('exports holdings as CSV with a hostile account name neutralised', async () => {
    const user = await signIn(app);
    const api = apiClient(app.url);
    const hostile = '=HYPERLINK("http://evil.example","x")';
    await api.post(
      '/api/holdings/upload-csv',
      { csvData: 'Symbol,Quantity,Buy Price\nTCS,2,3500\n', broker_name: hostile },
      user.token,
    );
    const res = await fetch(`${app.url}/api/holdings/export`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(res.headers.get('content-type')).to.match(/^text\/csv/);
    const text = await res.text();
    expect(text.split('\n')[0]).to.equal(
      'Symbol,Exchange,Company,Account,Quantity,Buy Price,LTP,Current Value,P&L,Gain %',
    );
    expect(text).to.include(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(text).to.match(/^TCS,NSE,/m);
    const none = await request(app.url, 'GET', '/api/holdings/export');
    expect(none.status).to.equal(401);
  });

  it('refuses a manual symbol that is not an exchange symbol', async () => {
    const user = await signIn(app);
    const res = await apiClient(app.url).post(
      '/api/holdings/manual',
      { symbol: '=CMD()', exchange: 'NSE', quantity: 1, average_price: 1 },
      user.token,
    );
    expect(res.status).to.equal(400);
    expect(res.body.error).to.equal('Symbol can only contain letters, digits, &, -, . and _');
  });
});
