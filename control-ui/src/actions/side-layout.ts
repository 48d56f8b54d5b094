import { clampDestinationsHeight } from '../model/live-panel.ts';
import { useSideLayoutStore } from '../stores/index.ts';

/** The studio's side column as the creator arranges it (kept in this browser by the store). */
export function toggleDestinationsOpen(): void {
  useSideLayoutStore.setState((s) => ({ destinationsOpen: !s.destinationsOpen }));
}

/** The destinations list's height, dragged or stepped with the keyboard; the chat takes the rest. */
export function setDestinationsHeight(px: number): void {
  useSideLayoutStore.setState({ destinationsHeight: clampDestinationsHeight(px) });
}

/** Back to as tall as its rows (double click or Home on the edge). */
export function resetDestinationsHeight(): void {
  useSideLayoutStore.setState({ destinationsHeight: null });
}
