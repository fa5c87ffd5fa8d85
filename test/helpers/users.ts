/** Test users: each test signs in its own user through the real demo sign-in route. */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { users } from '../../server/src/db/schema.ts';
import type { TestApp } from './app.ts';
import { request } from './http.ts';

export interface SignedInUser {
  id: string;
  email: string;
  name: string;
  token: string;
  refreshToken: string;
}

export async function signIn(
  app: TestApp,
  overrides: { email?: string; name?: string; tier?: 'basic' | 'advanced' } = {},
): Promise<SignedInUser> {
  const email = overrides.email ?? `user-${randomUUID().slice(0, 8)}@example.com`;
  const name = overrides.name ?? 'Test Investor';
  const res = await request<{ token: string; refresh_token: string; user: { id: string } }>(
    app.url,
    'POST',
    '/api/auth/login',
    { email, name },
    { headers: { 'x-forwarded-for': randomUUID() } },
  );
  if (res.status !== 200 || !res.body.data)
    throw new Error(`sign-in failed: ${res.status} ${res.body.error}`);
  if (overrides.tier) {
    await app.runtime.deps.db
      .update(users)
      .set({ subscriptionTier: overrides.tier })
      .where(eq(users.id, res.body.data.user.id));
  }
  return {
    id: res.body.data.user.id,
    email,
    name,
    token: res.body.data.token,
    refreshToken: res.body.data.refresh_token,
  };
}
