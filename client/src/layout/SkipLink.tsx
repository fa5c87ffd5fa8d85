/** The first focusable element on every page: jumps past the header to the content. */
export function SkipLink() {
  return (
    <a className="skip-link" href="#main">
      Skip to main content
    </a>
  );
}
