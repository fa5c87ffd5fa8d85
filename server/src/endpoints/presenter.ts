import type { ApiNotificationEndpoint } from '@app/common/api/endpoints';
import type { notificationEndpoints } from '../db/schema.ts';

export type EndpointRow = typeof notificationEndpoints.$inferSelect;

/** Whether `endpoint` is the account's own email (compared case-insensitively). */
export function isAccountEmail(
  endpoint: Pick<EndpointRow, 'type' | 'valueKey'>,
  accountEmail: string,
): boolean {
  return endpoint.type === 'email' && endpoint.valueKey === accountEmail.trim().toLowerCase();
}

/** The endpoint as the client sees it; never the token hash or its timestamps. */
export function presentEndpoint(endpoint: EndpointRow, accountEmail: string): ApiNotificationEndpoint {
  return {
    id: endpoint.id,
    type: endpoint.type,
    value: endpoint.value,
    label: endpoint.label,
    is_active: endpoint.isActive,
    verification_status: endpoint.verificationStatus,
    created_at: endpoint.createdAt.toISOString(),
    is_account_email: isAccountEmail(endpoint, accountEmail),
    notices: endpoint.notices,
    inactive_reason: endpoint.isActive ? null : endpoint.inactiveReason,
  };
}
