import { coverageSentence, type Coverage } from '@app/common/portfolio/coverage';
import { Link } from 'react-router';
import { ShieldIcon } from '../../components/icons.tsx';

/**
 * "12 of 15 holdings protected", and a link to the Holdings table filtered to the unprotected
 * ones while there are any.
 */
export function CoverageLine({ coverage }: { coverage: Coverage }) {
  const bare = coverage.holdings - coverage.protected;
  return (
    <p className="coverage-line" data-complete={bare === 0 || undefined}>
      <ShieldIcon size={18} aria-hidden="true" />
      <span className="coverage-text">{coverageSentence(coverage)}</span>
      {bare > 0 ? (
        <Link to="/holdings?filter=unprotected" className="coverage-link">
          {bare === 1 ? 'Show the unprotected holding' : `Show the ${bare} unprotected`}
        </Link>
      ) : null}
    </p>
  );
}
