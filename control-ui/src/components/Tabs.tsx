import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import styles from './Tabs.module.css';

export interface TabDefinition<Id extends string> {
  id: Id;
  label: string;
  panel: ReactNode;
  /** A marker beside the label (unread messages), with its words for screen readers. */
  badge?: string;
}

export interface TabsProps<Id extends string> {
  label: string;
  tabs: readonly TabDefinition<Id>[];
  initialTab: Id;
}

/**
 * WAI-ARIA tabs: arrow keys, Home and End move between tabs, and only the selected tab is in the
 * tab order. Only the selected panel is mounted, so hidden panels hold no live subscriptions.
 */
export function Tabs<Id extends string>({ label, tabs, initialTab }: TabsProps<Id>) {
  const [selected, setSelected] = useState<Id>(initialTab);
  const baseId = useId();
  const tabRefs = useRef(new Map<Id, HTMLButtonElement>());
  const current = tabs.find((tab) => tab.id === selected) ?? tabs[0];

  const focusTab = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length];
    if (!tab) return;
    setSelected(tab.id);
    tabRefs.current.get(tab.id)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    focusTab(target);
  };

  return (
    <div className={styles.tabs}>
      <div role="tablist" aria-label={label} className={styles.list}>
        {tabs.map((tab, index) => {
          const isSelected = tab.id === current?.id;
          return (
            <button
              key={tab.id}
              ref={(element) => {
                if (element) tabRefs.current.set(tab.id, element);
                else tabRefs.current.delete(tab.id);
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${tab.id}`}
              aria-selected={isSelected}
              aria-controls={`${baseId}-panel-${tab.id}`}
              tabIndex={isSelected ? 0 : -1}
              className={styles.tab}
              onClick={() => setSelected(tab.id)}
              onKeyDown={(event) => onKeyDown(event, index)}
            >
              {tab.label}
              {tab.badge && <span className={styles.badge} role="status" aria-label={tab.badge} title={tab.badge} data-testid={`tab-badge-${tab.id}`} />}
            </button>
          );
        })}
      </div>
      {current && (
        <div role="tabpanel" id={`${baseId}-panel-${current.id}`} aria-labelledby={`${baseId}-tab-${current.id}`} className={styles.panel}>
          {current.panel}
        </div>
      )}
    </div>
  );
}
