import type { HTMLAttributes, ReactNode } from 'react';
import styles from './Card.module.css';

export type CardVariant = 'item' | 'section';

export interface CardProps extends HTMLAttributes<HTMLElement> {
  /** 'item': a small card in a list, its action at the end; 'section': a part of a page with a title. */
  variant?: CardVariant;
  /** The element it is: a list item in a list, a section on a page. */
  as?: 'div' | 'li' | 'section' | 'article';
  /** A section's heading (an h2). */
  heading?: string;
  children?: ReactNode;
}

/** A framed surface: the kit's one card, for a template in a list as for a section of a settings page. */
export function Card({ variant = 'item', as: Element = 'div', heading, className, children, ...props }: CardProps) {
  return (
    <Element className={[styles.card, styles[variant], className].filter(Boolean).join(' ')} {...props}>
      {heading && <h2 className={styles.title}>{heading}</h2>}
      {children}
    </Element>
  );
}
