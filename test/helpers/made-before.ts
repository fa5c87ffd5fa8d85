/**
 * What a suite's `before` hook will make (an app, a fake service, a database), usable from the
 * suite's declaration on: each use reads `get()` then, and fails naming `what` while the hook has
 * not made it yet. A suite's helpers return these, so a test file reads `app.url` in its tests.
 */
export function madeBefore<T extends object>(what: string, get: () => T | undefined): T {
  const made = () => {
    const value = get();
    if (value === undefined) throw new Error(`${what} is not ready yet (use it inside a test or hook)`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, property) {
      // Not a promise: `await` and async returns look for `then` before the hook has run.
      if (property === 'then') return undefined;
      const value = made();
      const field: unknown = Reflect.get(value, property, value);
      return typeof field === 'function' ? field.bind(value) : field;
    },
  });
}
