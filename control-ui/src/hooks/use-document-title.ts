import { useEffect } from 'react';

/** Each screen names its browser tab, so a creator with several OnAir tabs can tell them apart. */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · OnAir`;
  }, [title]);
}
