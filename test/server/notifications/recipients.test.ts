import type { Channel, NoticeKind } from '@app/common/notifications/channels';
import { expect } from 'chai';
import { queryRows } from '../../../server/src/db/client.ts';
import { QUOTA_EXECUTION_TYPES } from '../../../server/src/notifications/kinds.ts';
import { recipientsSql } from '../../../server/src/notifications/recipients.ts';
import type { SignedInUser } from '../../helpers/users.ts';
import { rulesSuite } from '../rules/support.ts';
import { addEndpoint, emailEndpointOf, setNotices } from './support.ts';

const ALL: ReadonlySet<Channel> = new Set(['email', 'webpush', 'telegram', 'whatsapp']);

describe('notification recipients: by kind, notices preference, tier and configured channels', () => {
  const { app, users } = rulesSuite();

  /** The endpoint ids that get a notice of `kind` among `people`'s. */
  async function recipients(people: SignedInUser[], kind: NoticeKind, channels = ALL): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      app.runtime.deps.db,
      recipientsSql(
        people.map((p) => p.id),
        { kind, channels },
      ),
    );
    return rows.map((r) => r.id).sort();
  }

  it('an alert goes to active, verified endpoints that want alerts; a messaging app only on Advanced', async () => {
    const basic = await users.make('basic');
    const advanced = await users.make('advanced');
    const email = await emailEndpointOf(app, basic);
    const phone = await addEndpoint(app, basic, 'webpush', { notices: ['alert'] });
    await addEndpoint(app, basic, 'webpush', { verified: false });
    await addEndpoint(app, basic, 'webpush', { active: false });
    await addEndpoint(app, basic, 'telegram');
    await addEndpoint(app, basic, 'whatsapp');
    const advancedEmail = await emailEndpointOf(app, advanced);
    await setNotices(app, advancedEmail.id, ['digest']);
    const chat = await addEndpoint(app, advanced, 'telegram');
    const whatsapp = await addEndpoint(app, advanced, 'whatsapp', { notices: ['corporate_action'] });

    expect(await recipients([basic, advanced], 'alert')).to.deep.equal([email.id, phone.id, chat.id].sort());
    expect(await recipients([basic, advanced], 'digest')).to.deep.equal(
      [email.id, advancedEmail.id, chat.id].sort(),
    );
    expect(await recipients([basic, advanced], 'corporate_action')).to.deep.equal(
      [email.id, chat.id, whatsapp.id].sort(),
    );
  });

  it('a channel this server has no sender for gets nothing', async () => {
    const user = await users.make('advanced');
    const email = await emailEndpointOf(app, user);
    await addEndpoint(app, user, 'webpush');
    await addEndpoint(app, user, 'telegram');
    expect(await recipients([user], 'alert', new Set(['email']))).to.deep.equal([email.id]);
  });

  it('the quota counts alerts only: the kinds table allows ALERT and nothing else', () => {
    expect(QUOTA_EXECUTION_TYPES).to.deep.equal(['ALERT']);
  });
});
