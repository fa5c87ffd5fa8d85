// Before the header's own stylesheets, as when it was part of the first one.
import '../styles/holdings.css';
import { AppHeader } from './AppHeader.tsx';
import { SiteFrame } from './SiteFrame.tsx';

/** Frame of the signed-in pages. */
export default function AppLayout() {
  return <SiteFrame header={<AppHeader />} />;
}
