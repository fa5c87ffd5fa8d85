import { PublicHeader } from './PublicHeader.tsx';
import { SiteFrame } from './SiteFrame.tsx';

/** Frame of the public pages (landing, login, legal, help). */
export function PublicLayout() {
  return <SiteFrame header={<PublicHeader />} />;
}
