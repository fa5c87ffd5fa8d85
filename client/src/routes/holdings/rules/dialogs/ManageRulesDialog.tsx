import type { ApiPositionRule } from '@app/common/api/rules';
import { useState } from 'react';
import '../../../../styles/rule-dialogs.css';
import '../../../../styles/rule-manage.css';
import { Modal } from '../../../../components/Modal.tsx';
import { ExecutionHistoryTab } from './ExecutionHistoryTab.tsx';
import { ManageRulesTab } from './ManageRulesTab.tsx';
import { Tabs } from './Tabs.tsx';

type ManageTab = 'rules' | 'history';

const TABS = [
  { id: 'rules', label: 'Rules' },
  { id: 'history', label: 'Execution History' },
] as const;

interface ManageRulesDialogProps {
  rules: readonly ApiPositionRule[];
  accountNames: ReadonlyMap<string, string>;
  onChanged: () => Promise<void>;
  onClose: () => void;
}

/**
 * Manage Position Rules (docs/exit-rules.md): every rule with bulk and per-rule actions, and the executions.
 */
export default function ManageRulesDialog({
  rules,
  accountNames,
  onChanged,
  onClose,
}: ManageRulesDialogProps) {
  const [tab, setTab] = useState<ManageTab>('rules');
  return (
    <Modal title="Manage Position Rules" onClose={onClose}>
      <Tabs label="Rules and history" tabs={TABS} selected={tab} onSelect={setTab}>
        {tab === 'rules' ? (
          <ManageRulesTab rules={rules} accountNames={accountNames} onChanged={onChanged} />
        ) : (
          <ExecutionHistoryTab />
        )}
      </Tabs>
    </Modal>
  );
}
