/** The account the user picked in the upload dialog: one of theirs, or a new one with a name. */
import { MAX_ACCOUNT_NAME } from '@app/common/holdings/schemas';
import { normalAccountName } from '@app/common/holdings/upload-preview';
import type { UploadPreview } from './uploadApi.ts';

export type AccountPick = { kind: 'existing'; id: string } | { kind: 'new'; name: string };

/** The server's choice as a pick, or null when the user has to choose. */
export function accountPickOf(preview: UploadPreview): AccountPick | null {
  const target = preview.target_account;
  if (!target) return null;
  return target.id ? { kind: 'existing', id: target.id } : { kind: 'new', name: target.name };
}

/** Why the picked new account's name cannot be used, or null. */
export function accountPickProblem(pick: AccountPick, preview: UploadPreview): string | null {
  if (pick.kind === 'existing') return null;
  const name = pick.name.trim();
  if (!name) return 'Give the new account a name.';
  if (name.length > MAX_ACCOUNT_NAME) return 'Account name is too long (60 characters at most)';
  const wanted = normalAccountName(name).toLowerCase();
  const taken = preview.account_options.find((option) => option.name.toLowerCase() === wanted);
  return taken
    ? `You already have an account named ${taken.name}: choose it above to replace its holdings, or give the new account another name.`
    : null;
}

/** The picked account's name, as the preview shows it. */
export function pickedAccountName(pick: AccountPick | null, preview: UploadPreview): string | null {
  if (!pick) return null;
  if (pick.kind === 'new') return pick.name.trim() || null;
  return preview.account_options.find((option) => option.id === pick.id)?.name ?? null;
}
