import * as RadixMenu from '@radix-ui/react-dropdown-menu';
import { Check } from 'lucide-react';
import type { ReactNode } from 'react';
import { usePortalContainer } from './portal-container.ts';
import styles from './Menu.module.css';

export interface MenuProps {
  /** One focusable element that opens the menu. */
  trigger: ReactNode;
  label: string;
  children: ReactNode;
  /** Where the open menu is drawn (another window's body for a popout); the page's body by default. */
  container?: HTMLElement | null;
}

export function Menu({ trigger, label, children, container }: MenuProps) {
  // An explicit container (a popout window) wins; inside a dialog, the dialog; else the page's body.
  const dialog = usePortalContainer();
  return (
    <RadixMenu.Root>
      <RadixMenu.Trigger asChild>{trigger}</RadixMenu.Trigger>
      <RadixMenu.Portal container={container ?? dialog}>
        <RadixMenu.Content className={styles.content} aria-label={label} align="end" sideOffset={6}>
          {children}
        </RadixMenu.Content>
      </RadixMenu.Portal>
    </RadixMenu.Root>
  );
}

export interface MenuItemProps {
  icon?: ReactNode;
  children: ReactNode;
  onSelect?: () => void;
  disabled?: boolean;
}

export function MenuItem({ icon, children, onSelect, disabled }: MenuItemProps) {
  return (
    <RadixMenu.Item className={styles.item} onSelect={onSelect} disabled={disabled}>
      {icon}
      {children}
    </RadixMenu.Item>
  );
}

export interface MenuCheckboxItemProps {
  icon?: ReactNode;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  children: ReactNode;
}

/** A choice that is on or off; the menu stays open, so several can be changed in one go. */
export function MenuCheckboxItem({ icon, checked, onCheckedChange, children }: MenuCheckboxItemProps) {
  return (
    <RadixMenu.CheckboxItem className={styles.item} checked={checked} onCheckedChange={onCheckedChange} onSelect={(event) => event.preventDefault()}>
      <span className={styles.check} aria-hidden>
        <RadixMenu.ItemIndicator>
          <Check size={14} />
        </RadixMenu.ItemIndicator>
      </span>
      {icon}
      {children}
    </RadixMenu.CheckboxItem>
  );
}

export interface MenuLinkItemProps {
  icon?: ReactNode;
  href: string;
  children: ReactNode;
}

/** A menu entry that leaves the app: opens in a new tab so a live studio is never navigated away. */
export function MenuLinkItem({ icon, href, children }: MenuLinkItemProps) {
  return (
    <RadixMenu.Item className={styles.item} asChild>
      <a href={href} target="_blank" rel="noreferrer">
        {icon}
        {children}
      </a>
    </RadixMenu.Item>
  );
}

export function MenuLabel({ children }: { children: ReactNode }) {
  return <RadixMenu.Label className={styles.label}>{children}</RadixMenu.Label>;
}

export function MenuSeparator() {
  return <RadixMenu.Separator className={styles.separator} />;
}
