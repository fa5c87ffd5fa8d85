/** The add-endpoint request schema; the zod-free rules and texts live in endpoints/validation.ts. */
import { z } from 'zod';
import { ENDPOINT_MESSAGES, ENDPOINT_TYPES, validateEndpoint } from '../endpoints/validation.ts';

export * from '../endpoints/validation.ts';

/** POST /api/notification-endpoints. `type` defaults to email, as in the form. */
export const addEndpointBody = z
  .object({
    type: z.enum(ENDPOINT_TYPES, { message: 'Please choose Email or WhatsApp' }).default('email'),
    value: z.string({ message: ENDPOINT_MESSAGES.blank }),
  })
  .superRefine((body, ctx) => {
    const message = validateEndpoint(body.type, body.value);
    if (message) ctx.addIssue({ code: 'custom', path: ['value'], message });
  });

export type AddEndpointInput = z.infer<typeof addEndpointBody>;

/** GET /api/notification-endpoints/verify?token=: any string, so a missing or malformed token gets the same sentence as an unknown one. */
export const verifyEndpointQuery = z.object({ token: z.string().catch('') });
export type VerifyEndpointQuery = z.infer<typeof verifyEndpointQuery>;
