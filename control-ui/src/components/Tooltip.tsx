import * as RadixTooltip from '@radix-ui/react-tooltip';
import type { ReactNode } from 'react';
import { usePortalContainer } from './portal-container.ts';
import styles from './Tooltip.module.css';

/** Spec §9: tooltips open after 250 ms. Mounted once at the root of the app. */
export const TOOLTIP_OPEN_DELAY_MS = 250;

export function TooltipProvider({ children }: { children: ReactNode }) {
  return <RadixTooltip.Provider delayDuration={TOOLTIP_OPEN_DELAY_MS}>{children}</RadixTooltip.Provider>;
}

export interface TooltipProps {
  content: ReactNode;
  /** One focusable element (a button, a link); the tooltip is also its accessible description. */
  children: ReactNode;
  side?: 'top' | 'right' | 'bottom' | 'left';
}

export function Tooltip({ content, children, side = 'bottom' }: TooltipProps) {
  const container = usePortalContainer();
  return (
    <RadixTooltip.Root>
      <RadixTooltip.Trigger asChild>{children}</RadixTooltip.Trigger>
      <RadixTooltip.Portal container={container}>
        <RadixTooltip.Content className={styles.content} side={side} sideOffset={6}>
          {content}
          <RadixTooltip.Arrow className={styles.arrow} />
        </RadixTooltip.Content>
      </RadixTooltip.Portal>
    </RadixTooltip.Root>
  );
}
