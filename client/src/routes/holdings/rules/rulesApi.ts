/**
 * The rules calls of the Holdings page (/api/position-rules and /api/rule-executions: docs/exit-rules.md).
 */
import type {
  ApiBulkActionResult,
  ApiBulkCreateResult,
  ApiExecutionsPage,
  ApiPositionRule,
} from '@app/common/api/rules';
import type { Exchange } from '@app/common/instruments/types';
import type { EnableLevel } from '@app/common/rules/index';
import { api } from '../../../api/client.ts';
import { periodWindow } from '../../history/executionDisplay.ts';

/** A rule as POST /api/position-rules accepts it (the server fills in the rest). */
export interface NewRule {
  symbol: string;
  exchange: Exchange;
  rule_name?: string;
  rule_scope: 'all_holdings' | 'specific_account';
  target_account_id: string | null;
  action_type: 'ALERT' | 'SELL';
  trigger_type: ApiPositionRule['trigger_type'];
  trigger_value: number;
  value_type: ApiPositionRule['value_type'];
  reference?: 'current' | 'buy_price';
  computed_trigger_price?: number;
  [field: string]: unknown;
}

export type RuleChange = Partial<
  Pick<
    ApiPositionRule,
    'rule_name' | 'trigger_type' | 'trigger_value' | 'value_type' | 'rearm' | 'rearm_percent' | 'atr_period'
  >
>;

export type BulkAction = 'enable' | 'disable' | 'delete';

export const rulesApi = {
  create: (rule: NewRule) => api.post<ApiPositionRule>('/position-rules', rule),
  createMany: (rules: NewRule[]) => api.post<ApiBulkCreateResult>('/position-rules/bulk', { rules }),
  update: (id: string, change: RuleChange) => api.put<ApiPositionRule>(`/position-rules/${id}`, change),
  /** `from_price`: enable a fixed rule measured again from the current price (the user agreed). */
  setActive: (id: string, isActive: boolean, level: EnableLevel = 'keep') =>
    api.patch<ApiPositionRule>(`/position-rules/${id}`, { is_active: isActive, level }),
  remove: (id: string) => api.delete<unknown>(`/position-rules/${id}`),
  bulkAction: (ids: string[], action: BulkAction) =>
    api.post<ApiBulkActionResult>('/position-rules/bulk-action', { ids, action }),
  executions: (days: number, limit: number) =>
    api.get<ApiExecutionsPage>('/rule-executions', { query: { ...periodWindow(days), limit, offset: 0 } }),
};
