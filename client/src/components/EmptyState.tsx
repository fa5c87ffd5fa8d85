import type { ReactNode } from 'react';

interface EmptyStateProps {
  icon: ReactNode;
  title: string;
  children?: ReactNode;
  /** A link or button that gets the user going. */
  action?: ReactNode;
  /** Heading level, so the page's heading order stays intact. */
  headingLevel?: 2 | 3;
}

/** A friendly 'nothing here yet' card with one next step. */
export function EmptyState({ icon, title, children, action, headingLevel = 2 }: EmptyStateProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="card empty-state">
      <div className="empty-state-icon">{icon}</div>
      <Heading className="card-title">{title}</Heading>
      {children ? <p>{children}</p> : null}
      {action}
    </section>
  );
}
