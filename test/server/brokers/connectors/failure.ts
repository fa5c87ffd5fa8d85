/** The connector tests' one helper: the BrokerError a call failed with (any other outcome fails the test). */
import { BrokerError } from '../../../../server/src/brokers/connector.ts';

export async function failureOf(call: Promise<unknown>): Promise<BrokerError> {
  try {
    await call;
  } catch (err) {
    if (err instanceof BrokerError) return err;
    throw err;
  }
  throw new Error('expected a BrokerError, the call succeeded');
}
