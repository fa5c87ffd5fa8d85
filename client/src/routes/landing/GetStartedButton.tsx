/** One of the landing page's three Get Started buttons; all share one check. */
export function GetStartedButton({
  checking,
  onClick,
  variant = 'primary',
}: {
  checking: boolean;
  onClick: () => void;
  variant?: 'primary' | 'inverse';
}) {
  return (
    <button
      type="button"
      className={variant === 'primary' ? 'btn btn-primary btn-lg' : 'btn btn-inverse btn-lg'}
      onClick={onClick}
      disabled={checking}
      aria-busy={checking}
    >
      {checking ? 'Checking...' : 'Get Started'}
    </button>
  );
}
