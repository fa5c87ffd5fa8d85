import { CloseIcon, MenuIcon } from '../components/icons.tsx';

/** The button that opens the mobile menu (shown below 768px). */
export function MenuToggle({
  open,
  onToggle,
  controls,
}: {
  open: boolean;
  onToggle: () => void;
  controls: string;
}) {
  return (
    <button
      type="button"
      className="icon-button menu-toggle"
      aria-expanded={open}
      aria-controls={controls}
      aria-label={open ? 'Close menu' : 'Open menu'}
      onClick={onToggle}
    >
      {open ? <CloseIcon /> : <MenuIcon />}
    </button>
  );
}
