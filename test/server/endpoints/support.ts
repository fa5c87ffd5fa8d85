/** Shared steps of the endpoint tests: the outbox, the link in a verification email, backdating. */
import type {
  ApiEndpointSendResult,
  ApiNotificationEndpoint,
  ApiVerifyResult,
} from '@app/common/api/endpoints';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { notificationEndpoints } from '../../../server/src/db/schema.ts';
import type { TestApp } from '../../helpers/app.ts';
import { apiClient, type ApiResponse } from '../../helpers/http.ts';

export const APP_URL = 'http://app.example.test';
export const BASE = '/api/notification-endpoints';

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers as sent (List-Unsubscribe). */
  headers?: Record<string, string>;
  sentAt: string;
}

export function uniqueEmail(prefix = 'alerts'): string {
  return `${prefix}-${randomUUID().slice(0, 8)}@example.com`;
}

export async function outboxFor(app: TestApp, to: string): Promise<OutboxMail[]> {
  const res = await apiClient(app.url).get<OutboxMail[]>(`/api/dev/outbox?to=${encodeURIComponent(to)}`);
  if (res.status !== 200) throw new Error(`outbox: ${res.status} ${res.body.error}`);
  return res.body.data!;
}

/** The verification link in a plain-text email. */
export function verifyLink(text: string): string {
  const match = /(\S+\/verify-endpoint\?token=[A-Za-z0-9_%-]+)/.exec(text);
  if (!match) throw new Error(`no verification link in:\n${text}`);
  return match[1]!;
}

export function tokenOf(link: string): string {
  return new URL(link).searchParams.get('token')!;
}

export async function addEndpoint(
  app: TestApp,
  token: string,
  body: { type?: string; value: string },
): Promise<ApiResponse<ApiEndpointSendResult>> {
  return apiClient(app.url).post<ApiEndpointSendResult>(BASE, body, token);
}

export async function listEndpoints(app: TestApp, token: string): Promise<ApiNotificationEndpoint[]> {
  const res = await apiClient(app.url).get<ApiNotificationEndpoint[]>(BASE, token);
  if (res.status !== 200) throw new Error(`list: ${res.status} ${res.body.error}`);
  return res.body.data!;
}

export async function verify(app: TestApp, token: string): Promise<ApiResponse<ApiVerifyResult>> {
  return apiClient(app.url).get<ApiVerifyResult>(`${BASE}/verify?token=${encodeURIComponent(token)}`);
}

/** Moves an endpoint's timestamps into the past, as if time had passed. */
export async function backdate(
  app: TestApp,
  id: string,
  fields: { lastSentAt?: Date; tokenExpiresAt?: Date },
): Promise<void> {
  await app.runtime.deps.db.update(notificationEndpoints).set(fields).where(eq(notificationEndpoints.id, id));
}
