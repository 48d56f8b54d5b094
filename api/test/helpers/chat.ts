// What the platform chat tests share: a project that is live to the three chat doubles (its
// destinations written as the OAuth flow leaves them, tokens sealed with the api's key) and a
// studio socket that keeps every message it receives.
import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import type { Db } from '@onair/db';
import type { ChatDoubles } from '@onair/embedded';
import { SecretBox } from '@onair/runtime';
import { serverMessageSchema, type ChatDestinationEntry, type ChatMessage, type ClientMessage, type ServerMessage } from '@onair/protocol';
import { waitFor } from '@onair/embedded';

export const CHAT_SECRETS_KEY = Buffer.alloc(32, 16).toString('base64');

/** Short delays so the retries of spec §9 (5 s, 25 s, 30 s) do not make the tests wait. */
export const FAST_CHAT_ENV = {
  SECRETS_KEY: CHAT_SECRETS_KEY,
  PLATFORM_SUPERVISE_MS: '200',
  PLATFORM_OWNER_LEASE_MS: '2000',
  CHAT_TWITCH_RECONNECT_MS: '300',
  CHAT_NOT_LIVE_RETRY_MS: '300',
  CHAT_ERROR_RETRY_MS: '600',
  CHAT_STREAM_STALL_MS: '1500',
};

export interface ChatProject {
  projectId: string;
  broadcastId: string;
  twitch: string;
  youtube: string;
  facebook: string;
  /** A Trovo destination: a platform whose chat has no connector yet. */
  trovo: string;
}

export async function createLiveChatProject(db: Db, doubles: ChatDoubles, ownerId: string, channel = `chan${randomUUID().slice(0, 8)}`): Promise<ChatProject> {
  const box = new SecretBox(CHAT_SECRETS_KEY);
  const project = await db.project.create({ data: { ownerId, name: 'Chat' } });
  const make = async (
    type: 'Twitch' | 'YouTube' | 'Facebook' | 'Trovo',
    extra: Record<string, unknown>,
    token: { accessToken: string; refreshToken: string } | null,
  ) => {
    const id = randomUUID();
    await db.destination.create({
      data: {
        id,
        projectId: project.id,
        type,
        providerId: type.toLowerCase(),
        name: `${type} of Ada`,
        ...(token
          ? {
              accessTokenEnc: box.seal(token.accessToken, `${id}:accessToken`),
              refreshTokenEnc: box.seal(token.refreshToken, `${id}:refreshToken`),
              tokenExpiresAt: new Date(Date.now() + 3_600_000),
            }
          : {}),
        ...extra,
      },
    });
    return id;
  };
  const twitch = await make('Twitch', { username: channel, platformAccountId: '1' }, doubles.twitch.issueToken());
  const youtube = await make('YouTube', { username: 'Ada Live', platformAccountId: doubles.youtube.owner.channelId }, doubles.youtube.issueToken());
  const facebook = await make('Facebook', { username: 'Ada', platformAccountId: doubles.facebook.ownerId }, doubles.facebook.issueToken());
  const trovo = await make('Trovo', { rtmpUrl: 'rtmp://livepush.trovo.live/live', streamKeyEnc: null }, null);
  const broadcast = await db.broadcast.create({ data: { projectId: project.id, state: 'live', startedAt: new Date() } });
  return { projectId: project.id, broadcastId: broadcast.id, twitch, youtube, facebook, trovo };
}

/** A studio's socket: subscribed to the project, every message kept. */
export class StudioChatSocket {
  readonly received: ServerMessage[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const parsed = serverMessageSchema.safeParse(JSON.parse(data.toString()));
      if (parsed.success) this.received.push(parsed.data);
    });
  }

  static async open(wsUrl: string, cookie: string, projectId: string): Promise<StudioChatSocket> {
    const ws = new WebSocket(wsUrl, { headers: { cookie } });
    const socket = new StudioChatSocket(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    socket.send({ type: 'subscribe', projectId });
    await socket.waitFor((m) => m.type === 'subscribed');
    // As the studio does: the chats and their states so far, then every change.
    socket.send({ type: 'chat.history.request', projectId });
    await socket.waitFor((m) => m.type === 'chat.history');
    return socket;
  }

  send(message: ClientMessage): void {
    this.ws.send(JSON.stringify(message));
  }

  async waitFor<T extends ServerMessage>(match: (m: ServerMessage) => m is T, timeoutMs?: number): Promise<T>;
  async waitFor(match: (m: ServerMessage) => boolean, timeoutMs?: number): Promise<ServerMessage>;
  async waitFor(match: (m: ServerMessage) => boolean, timeoutMs = 45_000): Promise<ServerMessage> {
    return waitFor('a studio socket message', async () => this.received.find(match), timeoutMs, 20);
  }

  /** Every chat message received so far, the last version of each. */
  chatMessages(): ChatMessage[] {
    const byId = new Map<string, ChatMessage>();
    for (const m of this.received) if (m.type === 'chat.messages') for (const c of m.messages) byId.set(c.id, c);
    return [...byId.values()];
  }

  /** Waits until a chat message matches. */
  async waitForChat(match: (m: ChatMessage) => boolean, timeoutMs = 45_000): Promise<ChatMessage> {
    return waitFor('a chat message', async () => this.chatMessages().find(match), timeoutMs, 20);
  }

  /** The last `chat.destinations` (or history) state of a destination's chat. */
  stateOf(destinationId: string): ChatDestinationEntry | undefined {
    for (let i = this.received.length - 1; i >= 0; i--) {
      const m = this.received[i]!;
      if (m.type === 'chat.destinations' || m.type === 'chat.history') return m.destinations.find((d) => d.id === destinationId);
    }
    return undefined;
  }

  /** Waits until the latest state of a destination's chat is `state`. */
  async waitForState(destinationId: string, state: ChatDestinationEntry['state'], timeoutMs = 45_000): Promise<ChatDestinationEntry> {
    return waitFor(
      `the ${state} state of a chat`,
      async () => {
        const entry = this.stateOf(destinationId);
        return entry?.state === state ? entry : undefined;
      },
      timeoutMs,
      20,
    );
  }

  /** Whether a destination's chat ever reached `state` (a short 'reconnecting' may be gone by the time one looks). */
  everIn(destinationId: string, state: ChatDestinationEntry['state']): boolean {
    return this.received.some(
      (m) => (m.type === 'chat.destinations' || m.type === 'chat.history') && m.destinations.some((d) => d.id === destinationId && d.state === state),
    );
  }

  close(): void {
    this.ws.close();
  }
}
