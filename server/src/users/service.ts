import { eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../db/client.ts';
import { notificationEndpoints, users } from '../db/schema.ts';

export interface SignInIdentity {
  /** Google's `sub`, or `demo:<email>` for demo sign-in. */
  googleSub: string;
  email: string;
  name: string;
  picture?: string;
}

/**
 * Creates or updates the user keyed by `googleSub`. On first sign-in the user's email becomes
 * an email notification endpoint: verified when the address is proven (Google's verified email,
 * or demo sign-in outside production), else pending until its verification link is clicked.
 */
export async function signInUser(
  db: Database,
  { emailProven = true, ...identity }: SignInIdentity & { emailProven?: boolean },
) {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ ...identity, lastLoginAt: new Date() })
      .onConflictDoUpdate({
        target: users.googleSub,
        set: {
          email: identity.email,
          name: identity.name,
          picture: identity.picture ?? null,
          lastLoginAt: new Date(),
          updatedAt: sql`now()`,
        },
      })
      .returning();
    const created = user!.createdAt.getTime() === user!.updatedAt.getTime();
    if (created) {
      await tx
        .insert(notificationEndpoints)
        .values({
          userId: user!.id,
          type: 'email',
          value: identity.email,
          valueKey: identity.email.toLowerCase(),
          verificationStatus: emailProven ? 'verified' : 'pending',
          verifiedAt: emailProven ? new Date() : null,
        })
        .onConflictDoNothing();
    }
    return user!;
  });
}

export async function bumpTokenVersion(db: Executor, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, userId));
}

/** The user row with this id, if any. */
export async function findUser(db: Executor, { id }: { id: string }) {
  const [user] = await db.select().from(users).where(eq(users.id, id));
  return user;
}
