/** Shared steps of the WhatsApp tests: a fresh number, and adding it through the API. */
import { randomInt } from 'node:crypto';
import type { ApiEndpointSendResult } from '@app/common/api/endpoints';
import type { TestApp } from '../../helpers/app.ts';
import { apiClient, type ApiResponse } from '../../helpers/http.ts';

export const BASE = '/api/notification-endpoints';

/** An Indian mobile number no other test uses: +91 9 and nine random digits. */
export function uniqueNumber(): string {
  return `+919${String(randomInt(0, 1_000_000_000)).padStart(9, '0')}`;
}

export function addNumber(
  app: TestApp,
  token: string,
  value: string,
): Promise<ApiResponse<ApiEndpointSendResult>> {
  return apiClient(app.url).post<ApiEndpointSendResult>(BASE, { type: 'whatsapp', value }, token);
}
