import { serverMessageSchema, WS_PATH, type ClientMessage, type ServerMessage } from '@onair/protocol';

export interface StudioSocketHandlers {
  onOpen(): void;
  onMessage(message: ServerMessage): void;
  /** The socket is gone; `willRetry` is false only after `close()`. */
  onClose(willRetry: boolean): void;
}

export interface StudioSocket {
  send(message: ClientMessage): void;
  close(): void;
}

/** Waits between reconnects, doubling up to the last value. */
const RETRY_DELAYS_MS = [500, 1000, 2000, 5000];

/**
 * The api's `/ws`, same origin, authenticated by the session cookie the browser sends with the
 * handshake. Reconnects by itself until closed; every message is checked against `protocol`.
 */
export function connectStudioSocket(handlers: StudioSocketHandlers, url = defaultUrl()): StudioSocket {
  let ws: WebSocket | null = null;
  let closed = false;
  let attempt = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const open = () => {
    ws = new WebSocket(url);
    ws.addEventListener('open', () => {
      attempt = 0;
      handlers.onOpen();
    });
    ws.addEventListener('message', (event: MessageEvent) => {
      let data: unknown;
      try {
        data = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const parsed = serverMessageSchema.safeParse(data);
      if (parsed.success) handlers.onMessage(parsed.data);
    });
    ws.addEventListener('close', () => {
      ws = null;
      handlers.onClose(!closed);
      if (closed) return;
      const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)];
      attempt += 1;
      retry = setTimeout(open, delay);
    });
  };
  open();

  return {
    send(message) {
      if (ws?.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
    },
    close() {
      closed = true;
      clearTimeout(retry);
      ws?.close();
    },
  };
}

function defaultUrl(): string {
  const { protocol, host } = globalThis.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}${WS_PATH}`;
}
