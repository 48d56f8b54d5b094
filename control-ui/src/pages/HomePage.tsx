import { FolderOpen } from 'lucide-react';
import { EmptyState } from '../components/EmptyState.tsx';
import { useDocumentTitle } from '../hooks/use-document-title.ts';
import styles from './Page.module.css';

/** The studio home: the creator's projects. Listing them arrives with the projects API. */
export function HomePage() {
  useDocumentTitle('Projects');
  return (
    <div className={styles.page}>
      <header className={styles.header}>
        <h1 className={styles.title}>Projects</h1>
      </header>
      <section className={styles.card} aria-label="Project list">
        <EmptyState icon={<FolderOpen size={36} />} title="No projects yet">
          <p>Projects you create, or are invited to as a co-host, are listed here.</p>
        </EmptyState>
      </section>
    </div>
  );
}
