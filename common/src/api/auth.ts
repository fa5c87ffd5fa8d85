import { z } from 'zod';

export const googleSignInBody = z.object({
  credential: z.string({ message: 'credential is required' }).min(10, 'credential is required').max(8192),
});

export const demoSignInBody = z.object({
  email: z.email({ message: 'Please enter a valid email address' }).max(254),
  name: z.string().trim().min(1, 'Please enter your name').max(100, 'Name is too long'),
});

export const refreshBody = z.object({
  refresh_token: z
    .string({ message: 'refresh_token is required' })
    .min(20, 'refresh_token is required')
    .max(200),
});

export const logoutBody = z.object({ refresh_token: z.string().max(200).optional() });

export const pageEventBody = z.object({
  name: z.enum(['page_view']).default('page_view'),
  path: z.string().min(1).max(512).startsWith('/'),
  referrer: z.string().max(1024).optional(),
});
export type PageEventInput = z.infer<typeof pageEventBody>;

export interface ApiUser {
  id: string;
  name: string;
  email: string;
  picture?: string | null;
  subscription_tier: 'basic' | 'advanced';
  created_at: string;
}
