import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { EVENTS_POPOUT_SIZE } from '@onair/protocol';
import { setEventsPoppedOut } from '../../actions/events.ts';
import { useEventsStore } from '../../stores/index.ts';
import { EventsFeed } from './EventsFeed.tsx';
import styles from './Events.module.css';

const WINDOW_NAME = 'onair-events-feed';
let popout: Window | null = null;

export function focusEventsPopout(): void {
  popout?.focus();
}

/** The studio's styles (tokens, components, this feature) copied into the popout's document. */
function copyStyles(target: Document): void {
  for (const node of document.querySelectorAll('link[rel="stylesheet"], style')) target.head.appendChild(node.cloneNode(true));
  target.documentElement.dataset.theme = document.documentElement.dataset.theme ?? '';
}

/**
 * The events feed in its own 500×600 window (spec §2). The window is drawn by the studio itself
 * (a portal into it), so it shows the same store and stays live for as long as the studio is open;
 * closing it brings the feed back to the side panel, and leaving the studio closes it.
 */
export function EventsPopoutHost() {
  const poppedOut = useEventsStore((s) => s.poppedOut);
  const [container, setContainer] = useState<HTMLElement | null>(null);

  useEffect(() => {
    if (!poppedOut) return;
    const win = window.open('', WINDOW_NAME, `popup,width=${EVENTS_POPOUT_SIZE.width},height=${EVENTS_POPOUT_SIZE.height}`);
    if (!win) {
      // A blocked popup: the feed stays in the panel.
      setEventsPoppedOut(false);
      return;
    }
    popout = win;
    win.document.title = 'Events · OnAir';
    win.document.body.replaceChildren();
    copyStyles(win.document);
    const root = win.document.createElement('div');
    root.className = styles.popoutRoot ?? '';
    win.document.body.appendChild(root);
    setContainer(root);
    const onClose = () => setEventsPoppedOut(false);
    win.addEventListener('pagehide', onClose);
    // Some browsers fire nothing when a popup is closed from its frame: look now and then.
    const watch = setInterval(() => {
      if (win.closed) onClose();
    }, 500);
    return () => {
      clearInterval(watch);
      win.removeEventListener('pagehide', onClose);
      setContainer(null);
      popout = null;
      if (!win.closed) win.close();
    };
  }, [poppedOut]);

  return container ? createPortal(<EventsFeed portalContainer={container.ownerDocument.body} />, container) : null;
}
