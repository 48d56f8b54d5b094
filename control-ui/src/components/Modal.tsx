import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { PortalContainer } from './portal-container.ts';
import styles from './Modal.module.css';

export interface ModalProps {
  open: boolean;
  /** Called when the user asks to close (close button, Escape, click outside). */
  onClose: () => void;
  title: string;
  /** Visually hidden when the body already explains itself; screen readers still get it. */
  description: string;
  children: ReactNode;
  size?: 'medium' | 'large';
}

export function Modal({ open, onClose, title, description, children, size = 'medium' }: ModalProps) {
  const [content, setContent] = useState<HTMLDivElement | null>(null);
  return (
    <RadixDialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={styles.overlay} />
        <RadixDialog.Content ref={setContent} className={`${styles.content} ${styles[size]}`}>
          <header className={styles.header}>
            <RadixDialog.Title className={styles.title}>{title}</RadixDialog.Title>
            <RadixDialog.Close className={styles.close} aria-label="Close">
              <X size={18} aria-hidden />
            </RadixDialog.Close>
          </header>
          <RadixDialog.Description className={styles.srOnly}>{description}</RadixDialog.Description>
          <div className={styles.body}>
            <PortalContainer.Provider value={content}>{children}</PortalContainer.Provider>
          </div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
