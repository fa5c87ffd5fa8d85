/** The demo-mode /api/dev request schemas. */
import { z } from 'zod';

/** GET /api/dev/outbox?to=&limit=: the stored mail, newest first (50 by default, 200 at most). */
export const outboxQuery = z.object({
  to: z.string().trim().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
export type OutboxQuery = z.infer<typeof outboxQuery>;
