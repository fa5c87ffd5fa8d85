import { AppHeader } from './AppHeader.tsx';
import { SiteFrame } from './SiteFrame.tsx';

/** Frame of the signed-in pages. */
export default function AppLayout() {
  return <SiteFrame header={<AppHeader />} />;
}
