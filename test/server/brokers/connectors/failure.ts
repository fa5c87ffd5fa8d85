/** The connector tests' helpers: the BrokerError a call failed with, and every scripted failure's kind. */
import { expect } from 'chai';
import { BrokerError } from '../../../../server/src/brokers/connector.ts';
import type { ScriptedFailure } from '../../../helpers/fake-brokers/scripted.ts';

/** The BrokerError a call failed with (any other outcome fails the test). */
export async function failureOf(call: Promise<unknown>): Promise<BrokerError> {
  try {
    await call;
  } catch (err) {
    if (err instanceof BrokerError) return err;
    throw err;
  }
  throw new Error('expected a BrokerError, the call succeeded');
}

/** The scripted failures every fake broker plays, and the kind each must be read as. */
const FAILURE_KINDS: Array<[ScriptedFailure, BrokerError['kind']]> = [
  ['expired', 'expired'],
  ['rate_limited', 'rate_limited'],
  ['server_error', 'unavailable'],
  ['hang', 'unavailable'],
  ['malformed', 'malformed'],
];

/**
 * Plays each scripted failure once at `fake` and checks that `holdings()` (a connector with a short
 * timeout) fails with its kind, naming no token in its message.
 */
export async function expectFailuresMapped(
  fake: { fail: { push(failure: ScriptedFailure): void } },
  holdings: () => Promise<unknown>,
  token: string,
): Promise<void> {
  for (const [failure, kind] of FAILURE_KINDS) {
    fake.fail.push(failure);
    const err = await failureOf(holdings());
    expect(err.kind, failure).to.equal(kind);
    expect(err.message).not.to.include(token);
  }
}
