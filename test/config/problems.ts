import { ConfigError, parseConfig } from '@app/config';

/** The problems parseConfig reports for `env`, or [] when it accepts it. */
export function configProblems(env: Record<string, string | undefined>): string[] {
  try {
    parseConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
}
