import { Link } from 'react-router';
import { EmptyState } from '../components/EmptyState.tsx';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import styles from '../styles/Page.module.css';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <div className={styles.centred}>
      <EmptyState title="Page not found">
        <p>
          There is nothing at this address. <Link to="/">Go to your projects</Link>.
        </p>
      </EmptyState>
    </div>
  );
}
