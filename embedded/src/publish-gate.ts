import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PublishGateOptions {
  /**
   * The api's Local stream callback (`http://127.0.0.1:port/api/internal/local-stream/<secret>/publish`):
   * asked about every name a test-mode platform did not issue.
   */
  localStreamCallbackUrl: string;
  /** Whether a test-mode platform double of this process handed the key out to one of its channels. */
  isTestModeKey?: (key: string) => boolean;
  log?: (line: string) => void;
}

export interface RunningPublishGate {
  /** What the RTMP server's on_publish calls. */
  url: string;
  close(): Promise<void>;
}

const CALLBACK_TIMEOUT_MS = 5000;

/**
 * The on_publish of the one-machine stack's local RTMP server: a test-mode channel's key is
 * accepted when that platform's double issued it (the doubles run in this process, as a
 * platform's ingest asks the platform, so no key is copied anywhere); every other name is a Local
 * stream, and the api decides (a known name, published with its project's proof). Anything the api
 * does not accept, or an api that does not answer, refuses the publish. Names are never logged.
 */
export async function startPublishGate(options: PublishGateOptions): Promise<RunningPublishGate> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://gate.invalid');
    if (req.method !== 'GET' || url.pathname !== '/on_publish') {
      res.writeHead(404).end();
      return;
    }
    const name = url.searchParams.get('name') ?? '';
    if (name !== '' && options.isTestModeKey?.(name)) {
      res.writeHead(204).end();
      return;
    }
    void fetch(`${options.localStreamCallbackUrl}${url.search}`, { redirect: 'manual', signal: AbortSignal.timeout(CALLBACK_TIMEOUT_MS) }).then(
      (answer) => {
        res.writeHead(answer.status >= 200 && answer.status < 300 ? 204 : 403).end();
      },
      (err: Error) => {
        options.log?.(`a publish is refused: the api did not answer (${err.message})`);
        res.writeHead(503).end();
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/on_publish`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
