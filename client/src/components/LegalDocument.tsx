import type { ReactNode } from 'react';
import { useDocumentTitle } from '../layout/useDocumentTitle.ts';
import { useScrollToHash } from '../layout/useScrollToHash.ts';

export interface LegalSection {
  id: string;
  title: string;
  body: ReactNode;
}

interface LegalDocumentProps {
  title: string;
  lastUpdated: string;
  intro: ReactNode;
  sections: LegalSection[];
}

/** A long-form policy page: title, date, a table of contents and numbered sections. */
export function LegalDocument({ title, lastUpdated, intro, sections }: LegalDocumentProps) {
  useDocumentTitle(title);
  useScrollToHash();
  return (
    <div className="container container-narrow page legal">
      <header className="page-header">
        <h1>{title}</h1>
        <p>Last updated: {lastUpdated}</p>
      </header>
      <div className="legal-intro">{intro}</div>
      <nav className="card legal-toc" aria-labelledby="legal-toc-title">
        <h2 id="legal-toc-title">On this page</h2>
        <ol>
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((section, index) => (
        <section
          key={section.id}
          id={section.id}
          className="legal-section"
          aria-labelledby={`${section.id}-title`}
        >
          <h2 id={`${section.id}-title`}>
            {index + 1}. {section.title}
          </h2>
          {section.body}
        </section>
      ))}
    </div>
  );
}
