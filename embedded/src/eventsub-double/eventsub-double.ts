import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import { ChatDoubleBase, json, type TestModeIngest } from '../chat-doubles/double-http.ts';

/** What a viewer does on a test-mode channel (the control panel's audience), in Twitch's event shapes. */
export type TwitchAudienceAct =
  | { kind: 'follow'; viewer: string }
  | { kind: 'sub'; viewer: string; message: string; months: number }
  | { kind: 'raid'; viewer: string; viewers: number }
  | { kind: 'cheer'; viewer: string; message: string; bits: number };

/**
 * Twitch EventSub over WebSocket as a client meets it (eventsub.wss.twitch.tv/ws), with the Helix
 * endpoints that go with it:
 *
 * - the socket: `session_welcome` (session id, keepalive_timeout_seconds; `?keepalive_timeout_seconds=`
 *   is honoured as on Twitch), `session_keepalive` whenever the session was quiet that long,
 *   `notification`, `revocation`, and `session_reconnect` with a reconnect_url: the session's
 *   subscriptions move to the connection opened there, and the old one closes once the new one is
 *   welcomed; notifications raised meanwhile go out on the new connection.
 * - Helix: `POST /helix/eventsub/subscriptions` (websocket transport, a connected session of the
 *   caller's token, 409 for the same subscription twice), `GET` and `DELETE` of them, `GET /helix/users`
 *   for avatars, and the OAuth token endpoint (`/oauth2/token`) for refreshes.
 * - a session whose socket closes without a reconnect loses its subscriptions (Twitch disables them):
 *   a client must create them again on its next session.
 *
 * A test drives it directly or through `POST /_double/<action>` (emit, script, reconnect, revoke,
 * stall, raw, drop, subscriptions, sessions, notify-unknown).
 */
export interface EventSubSubscription {
  id: string;
  type: string;
  version: string;
  condition: Record<string, string>;
  sessionId: string;
  createdAt: string;
  token: string;
}

interface Session {
  id: string;
  ws: WebSocket;
  keepaliveSeconds: number;
  keepaliveTimer: NodeJS.Timeout | null;
  /** No keepalives (a connection that went silent). */
  stalled: boolean;
  /** A newer connection took the session over (after session_reconnect): nothing more goes out here. */
  replaced: boolean;
  /** session_reconnect was sent: notifications wait for the new connection. */
  migrating: boolean;
  pending: string[];
}

export interface EventSubEmit {
  /** Subscription type: channel.follow, channel.subscribe, channel.subscription.message, … */
  type: string;
  /** The event payload as Twitch sends it (the broadcaster fields are filled in when left out). */
  event: Record<string, unknown>;
  /** The channel (broadcaster user id) it happens on. */
  broadcasterId: string;
  /** Twitch's message id; the same id twice is a repeated delivery. */
  messageId?: string;
  /** Deliver it this many times (Twitch may deliver a message more than once). */
  times?: number;
}

export class EventSubDouble extends ChatDoubleBase {
  private wss!: WebSocketServer;
  private readonly sessions = new Map<string, Session>();
  readonly subscriptions = new Map<string, EventSubSubscription>();
  /** Every notification sent: message id, type, session. */
  readonly delivered: { messageId: string; type: string; sessionId: string }[] = [];
  keepaliveSeconds = 10;
  /** Test mode of the one-machine stack: Helix serves the signed-in account, its channel's own stream key and title, and the ingest list. */
  ingest: TestModeIngest | null = null;
  /** Channel titles set through Helix (PATCH /helix/channels), by broadcaster id. */
  readonly titles = new Map<string, string>();
  /** What chatbots said through Helix (POST /helix/chat/messages), in order. */
  readonly chatSent: { broadcasterId: string; senderId: string; text: string }[] = [];
  /** Called for each chat message sent through Helix (test mode hands it to the IRC chat double, so it shows in chat). */
  onChatMessage: ((broadcasterLogin: string | null, senderLogin: string | null, text: string) => void) | null = null;
  /** Login of a user id, from the test-mode sign-ins (and the audience's viewers). */
  private readonly logins = new Map<string, string>();

  constructor() {
    super('twitch-eventsub');
    this.controls.set('emit', (b) => this.emit(b as unknown as EventSubEmit));
    this.controls.set('script', (b) => this.script((b.steps ?? []) as (EventSubEmit & { delayMs?: number })[]));
    this.controls.set('reconnect', () => this.reconnectAll());
    this.controls.set('revoke', (b) => this.revoke(String(b.type), String(b.status ?? 'authorization_revoked')));
    this.controls.set('revoke-authorization', () => this.revokeAuthorization());
    this.controls.set('stall', () => this.stall());
    this.controls.set('raw', (b) => this.raw(String(b.text)));
    this.controls.set('notify-unknown', (b) => this.notifyUnknown(String(b.type ?? 'channel.follow')));
    this.controls.set('subscriptions', () => [...this.subscriptions.values()].map(({ token: _t, ...s }) => s));
    this.controls.set('sessions', () => [...this.sessions.values()].filter((s) => !s.replaced).map((s) => s.id));
    this.controls.set('accept-token', (b) => this.accept(String(b.accessToken)));
    this.controls.set('audience', (b) => this.audience(String(b.broadcasterId), b.act as TwitchAudienceAct));
    this.controls.set('titles', () => Object.fromEntries(this.titles));
    this.controls.set('chat-sent', () => this.chatSent);
    this.controls.set('know-login', (b) => this.knowLogin(String(b.id), String(b.login)));
    // Test mode: where a channel's stream arrives (the local RTMP server under the channel's own key), for a test to read it.
    this.controls.set('stream-url', (b) => {
      const id = [...this.logins].find(([, login]) => login === String(b.login))?.[0];
      return this.ingest && id !== undefined ? `${this.ingest.rtmpUrl}/${this.ingest.keys.keyOf(id)}` : null;
    });
    this.controls.set('keepalive', (b) => {
      this.keepaliveSeconds = Number(b.seconds ?? 10);
    });
  }

  /** A token handed out elsewhere (the Twitch chat double's, as one Twitch login serves both) works here too. */
  accept(accessToken: string): void {
    this.access.add(accessToken);
  }

  async start(port = 0): Promise<this> {
    await this.listen(async (r) => {
      if (r.method === 'POST' && r.path === '/oauth2/token') {
        const tokens = this.refresh(r.body as Record<string, string>);
        if (!tokens) return json(r.res, 400, { status: 400, message: 'Invalid refresh token' });
        return json(r.res, 200, { access_token: tokens.accessToken, refresh_token: tokens.refreshToken, expires_in: 14_400, scope: [], token_type: 'bearer' });
      }
      if (r.path.startsWith('/helix/')) {
        this.record(r);
        const failure = this.takeFailure(r.method);
        if (failure) return json(r.res, failure, { error: 'Injected', status: failure, message: 'injected failure' });
        if (!r.req.headers['client-id']) return json(r.res, 401, { error: 'Unauthorized', status: 401, message: 'Client ID is missing' });
        if (!r.token || !this.access.has(r.token)) return json(r.res, 401, { error: 'Unauthorized', status: 401, message: 'Invalid OAuth token' });
        return this.helix(r.method, r.path, r.query, r.body, r.token, r.res);
      }
      if (r.method === 'GET' && r.path === '/ingests' && this.ingest) {
        // Twitch's ingest list (ingest.twitch.tv/ingests): in test mode the one server is this machine's.
        return json(r.res, 200, {
          _total: 1,
          ingests: [
            { _id: 1, availability: 1, default: true, name: 'This machine (test mode)', priority: 1, url_template: `${this.ingest.rtmpUrl}/{stream_key}` },
          ],
        });
      }
      const avatar = /^\/avatars\/([A-Za-z0-9_-]+)\.svg$/.exec(r.path);
      if (r.method === 'GET' && avatar) {
        r.res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(avatarSvg(avatar[1]!));
        return;
      }
      json(r.res, 404, { error: 'Not Found', status: 404, message: `no route ${r.method} ${r.path}` });
    }, port);
    this.wss = new WebSocketServer({ noServer: true });
    this.server.on('upgrade', (req, socket, head) => {
      if (this.isDown() || !(req.url ?? '').startsWith('/ws')) {
        socket.destroy();
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws, req));
    });
    return this;
  }

  get wsUrl(): string {
    return `${this.url.replace(/^http/, 'ws')}/ws`;
  }

  get helixUrl(): string {
    return `${this.url}/helix`;
  }

  private helix(method: string, path: string, query: URLSearchParams, body: unknown, token: string, res: ServerResponse): void {
    if (path === '/helix/eventsub/subscriptions' && method === 'POST') {
      const b = (body ?? {}) as { type?: unknown; version?: unknown; condition?: unknown; transport?: { method?: unknown; session_id?: unknown } };
      if (
        typeof b.type !== 'string' ||
        typeof b.version !== 'string' ||
        typeof b.condition !== 'object' ||
        !b.condition ||
        b.transport?.method !== 'websocket'
      ) {
        return json(res, 400, { error: 'Bad Request', status: 400, message: 'invalid subscription request' });
      }
      const sessionId = String(b.transport.session_id ?? '');
      const session = this.sessions.get(sessionId);
      if (!session || session.replaced || session.ws.readyState !== WebSocket.OPEN) {
        return json(res, 400, { error: 'Bad Request', status: 400, message: 'websocket transport session does not exist or has already disconnected' });
      }
      const condition = Object.fromEntries(Object.entries(b.condition as Record<string, unknown>).map(([k, v]) => [k, String(v)]));
      const same = [...this.subscriptions.values()].find(
        (s) => s.type === b.type && s.sessionId === sessionId && JSON.stringify(s.condition) === JSON.stringify(condition),
      );
      if (same) return json(res, 409, { error: 'Conflict', status: 409, message: 'subscription already exists' });
      const sub: EventSubSubscription = {
        id: randomUUID(),
        type: b.type,
        version: b.version,
        condition,
        sessionId,
        createdAt: new Date().toISOString(),
        token,
      };
      this.subscriptions.set(sub.id, sub);
      return json(res, 202, { data: [this.wireSubscription(sub, 'enabled')], total: this.subscriptions.size, total_cost: 0, max_total_cost: 10 });
    }
    if (path === '/helix/eventsub/subscriptions' && method === 'GET') {
      const data = [...this.subscriptions.values()].filter((s) => s.token === token).map((s) => this.wireSubscription(s, 'enabled'));
      return json(res, 200, { data, total: data.length, total_cost: 0, max_total_cost: 10, pagination: {} });
    }
    if (path === '/helix/eventsub/subscriptions' && method === 'DELETE') {
      const id = query.get('id') ?? '';
      if (!this.subscriptions.delete(id)) return json(res, 404, { error: 'Not Found', status: 404, message: 'subscription not found' });
      res.writeHead(204).end();
      return;
    }
    if (path === '/helix/users' && method === 'GET' && query.getAll('id').length === 0 && query.getAll('login').length === 0) {
      // No id: the user behind the token (how Twitch answers who signed in).
      const owner = this.ownerOf(token);
      if (!owner) return json(res, 401, { error: 'Unauthorized', status: 401, message: 'The token belongs to no user' });
      return json(res, 200, {
        data: [
          {
            id: owner.id,
            login: owner.login,
            display_name: owner.displayName,
            type: '',
            broadcaster_type: '',
            description: 'A test-mode channel',
            profile_image_url: `${this.url}/avatars/${owner.id}.svg`,
            email: owner.email,
            created_at: '2026-01-01T00:00:00Z',
          },
        ],
      });
    }
    if (path === '/helix/streams/key' && method === 'GET' && this.ingest) {
      const owner = this.ownerOf(token);
      if (!owner || owner.id !== query.get('broadcaster_id'))
        return json(res, 403, { error: 'Forbidden', status: 403, message: 'broadcaster_id does not match the token' });
      return json(res, 200, { data: [{ stream_key: this.ingest.keys.keyOf(owner.id) }] });
    }
    if (path === '/helix/channels' && method === 'PATCH') {
      const owner = this.ownerOf(token);
      const id = query.get('broadcaster_id') ?? '';
      if (!owner || owner.id !== id) return json(res, 403, { error: 'Forbidden', status: 403, message: 'broadcaster_id does not match the token' });
      const title = (body as { title?: unknown } | undefined)?.title;
      if (typeof title !== 'string' || title.trim() === '' || title.length > 140)
        return json(res, 400, { error: 'Bad Request', status: 400, message: 'The title field may not be empty' });
      this.titles.set(id, title);
      res.writeHead(204).end();
      return;
    }
    if (path === '/helix/users' && method === 'GET') {
      const ids = query.getAll('id');
      return json(res, 200, {
        data: ids.map((id) => ({
          id,
          login: this.logins.get(id) ?? `user${id}`,
          display_name: this.logins.get(id) ?? `user${id}`,
          profile_image_url: `${this.url}/avatars/${encodeURIComponent(id)}.svg`,
        })),
      });
    }
    if (
      path.startsWith('/helix/chat/') ||
      path.startsWith('/helix/moderation/') ||
      (path === '/helix/channels' && method === 'GET') ||
      path === '/helix/streams'
    )
      return this.chatbotHelix(method, path, query, body, res);
    json(res, 404, { error: 'Not Found', status: 404, message: `no route ${method} ${path}` });
  }

  /**
   * The Helix calls a chatbot makes (the partner network's bot in test mode): send a chat message
   * (handed to the IRC chat double, so it shows in the chat), remove a message, ban or time out,
   * chat settings, the chatters list (empty: only chatting viewers earn), channel info and
   * whether the channel is live (never: OnAir's own broadcast state says so).
   */
  private chatbotHelix(method: string, path: string, query: URLSearchParams, body: unknown, res: ServerResponse): void {
    const bad = (message: string) => json(res, 400, { error: 'Bad Request', status: 400, message });
    if (method === 'POST' && path === '/helix/chat/messages') {
      const b = (body ?? {}) as { broadcaster_id?: unknown; sender_id?: unknown; message?: unknown };
      if (typeof b.broadcaster_id !== 'string' || typeof b.sender_id !== 'string' || typeof b.message !== 'string' || b.message === '')
        return bad('Missing required fields');
      if (b.message.length > 500) return bad('The message is too long');
      this.chatSent.push({ broadcasterId: b.broadcaster_id, senderId: b.sender_id, text: b.message });
      if (this.chatSent.length > 10_000) this.chatSent.shift();
      this.onChatMessage?.(this.logins.get(b.broadcaster_id) ?? null, this.logins.get(b.sender_id) ?? null, b.message);
      return json(res, 200, { data: [{ message_id: randomUUID(), is_sent: true, drop_reason: null }] });
    }
    if (!query.get('broadcaster_id') && path !== '/helix/streams') return bad('Missing required parameter "broadcaster_id"');
    if (method === 'DELETE' && path === '/helix/moderation/chat') {
      res.writeHead(204).end();
      return;
    }
    if (method === 'POST' && path === '/helix/moderation/bans') {
      const d = (body as { data?: { user_id?: unknown } } | undefined)?.data;
      if (typeof d?.user_id !== 'string') return bad('Missing required field "user_id"');
      return json(res, 200, { data: [{ broadcaster_id: query.get('broadcaster_id'), user_id: d.user_id, created_at: new Date().toISOString() }] });
    }
    if (method === 'PATCH' && path === '/helix/chat/settings')
      return json(res, 200, { data: [{ broadcaster_id: query.get('broadcaster_id'), ...(body as object) }] });
    if (method === 'GET' && path === '/helix/chat/chatters') return json(res, 200, { data: [], pagination: {}, total: 0 });
    if (method === 'GET' && path === '/helix/streams') return json(res, 200, { data: [], pagination: {} });
    if (method === 'GET' && path === '/helix/channels') {
      const id = query.get('broadcaster_id') ?? '';
      return json(res, 200, {
        data: [{ broadcaster_id: id, broadcaster_login: this.logins.get(id) ?? '', title: this.titles.get(id) ?? '', game_name: 'Just Chatting' }],
      });
    }
    json(res, 404, { error: 'Not Found', status: 404, message: `no route ${method} ${path}` });
  }

  private wireSubscription(s: EventSubSubscription, status: string) {
    return {
      id: s.id,
      status,
      type: s.type,
      version: s.version,
      condition: s.condition,
      created_at: s.createdAt,
      transport: { method: 'websocket', session_id: s.sessionId },
      cost: 0,
    };
  }

  private onConnection(ws: WebSocket, req: IncomingMessage): void {
    const url = new URL(req.url ?? '/ws', 'http://double');
    const reconnectOf = url.searchParams.get('reconnect');
    const keepalive = Number(url.searchParams.get('keepalive_timeout_seconds') ?? this.keepaliveSeconds);
    const old = reconnectOf ? this.sessions.get(reconnectOf) : undefined;
    // A reconnect keeps the session (and its subscriptions); a new connection is a new session.
    const id = old ? old.id : randomUUID().replace(/-/g, '').slice(0, 24);
    const session: Session = { id, ws, keepaliveSeconds: keepalive, keepaliveTimer: null, stalled: false, replaced: false, migrating: false, pending: [] };
    if (old) {
      old.replaced = true;
      session.pending = old.pending;
      old.pending = [];
    }
    this.sessions.set(id, session);
    ws.on('close', () => this.onClose(session));
    ws.on('error', () => undefined);
    ws.on('message', () => undefined); // Twitch ignores what clients send (and would close on it); the double too.
    this.sendTo(session, { metadata: this.meta('session_welcome'), payload: { session: this.wireSession(session, 'connected', null) } });
    if (old) {
      if (old.keepaliveTimer) clearTimeout(old.keepaliveTimer);
      old.ws.close(4004, 'Reconnect grace time expired');
      for (const text of session.pending.splice(0)) this.sendRaw(session, text);
    }
  }

  private onClose(session: Session): void {
    if (session.keepaliveTimer) clearTimeout(session.keepaliveTimer);
    if (session.replaced) return;
    // The connection of the session closed for good: Twitch disables its subscriptions.
    if (this.sessions.get(session.id) === session) this.sessions.delete(session.id);
    for (const [id, sub] of this.subscriptions) if (sub.sessionId === session.id) this.subscriptions.delete(id);
  }

  private wireSession(s: Session, status: string, reconnectUrl: string | null) {
    return {
      id: s.id,
      status,
      connected_at: new Date().toISOString(),
      keepalive_timeout_seconds: status === 'connected' ? s.keepaliveSeconds : null,
      reconnect_url: reconnectUrl,
      recovery_url: null,
    };
  }

  private meta(type: string, sub?: { type: string; version: string }, messageId: string = randomUUID()) {
    return {
      message_id: messageId,
      message_type: type,
      message_timestamp: new Date().toISOString(),
      ...(sub ? { subscription_type: sub.type, subscription_version: sub.version } : {}),
    };
  }

  private sendTo(session: Session, message: unknown): void {
    this.sendRaw(session, JSON.stringify(message));
  }

  private sendRaw(session: Session, text: string): void {
    if (session.replaced) return;
    if (session.migrating) {
      session.pending.push(text);
      return;
    }
    if (session.ws.readyState !== WebSocket.OPEN) return;
    session.ws.send(text);
    this.armKeepalive(session);
  }

  /** A keepalive goes out whenever the session was quiet for its keepalive time (less a little, as on Twitch). */
  private armKeepalive(session: Session): void {
    if (session.keepaliveTimer) clearTimeout(session.keepaliveTimer);
    if (session.stalled) return;
    session.keepaliveTimer = setTimeout(
      () => {
        if (session.replaced || session.stalled) return;
        this.sendTo(session, { metadata: this.meta('session_keepalive'), payload: {} });
      },
      Math.max(50, session.keepaliveSeconds * 1000 * 0.8),
    );
    session.keepaliveTimer.unref();
  }

  /** Sends an event to every subscription of its type on the broadcaster's channel; returns the message id. */
  emit(e: EventSubEmit): { messageId: string; delivered: number } {
    const messageId = e.messageId ?? randomUUID();
    let delivered = 0;
    for (const sub of this.subscriptions.values()) {
      if (sub.type !== e.type) continue;
      const channel = sub.condition.broadcaster_user_id ?? sub.condition.to_broadcaster_user_id;
      if (channel !== String(e.broadcasterId)) continue;
      const session = this.sessions.get(sub.sessionId);
      if (!session) continue;
      const event = { broadcaster_user_id: channel, broadcaster_user_login: `chan${channel}`, broadcaster_user_name: `Chan${channel}`, ...e.event };
      if (sub.type === 'channel.raid') {
        delete (event as Record<string, unknown>).broadcaster_user_id;
        delete (event as Record<string, unknown>).broadcaster_user_login;
        delete (event as Record<string, unknown>).broadcaster_user_name;
        Object.assign(event, {
          to_broadcaster_user_id: channel,
          to_broadcaster_user_login: `chan${channel}`,
          to_broadcaster_user_name: `Chan${channel}`,
          ...e.event,
        });
      }
      const text = JSON.stringify({
        metadata: this.meta('notification', sub, messageId),
        payload: { subscription: this.wireSubscription(sub, 'enabled'), event },
      });
      for (let i = 0; i < (e.times ?? 1); i++) {
        this.sendRaw(session, text);
        this.delivered.push({ messageId, type: e.type, sessionId: session.id });
      }
      delivered += 1;
    }
    return { messageId, delivered };
  }

  /** A name seen on this machine, so Helix knows its login (the viewers of the audience, the test-mode accounts). */
  knowLogin(id: string, login: string): void {
    this.logins.set(id, login);
  }

  /**
   * A viewer acts on a channel (the test-mode control panel): a follow, a sub with a message, a
   * raid or a cheer, as EventSub delivers it to the channel's subscriptions. The viewer's Twitch
   * id is derived from the name, so the same name is the same viewer every time.
   */
  audience(broadcasterId: string, act: TwitchAudienceAct): { messageId: string; delivered: number } {
    const login =
      act.viewer
        .toLowerCase()
        .replace(/[^a-z0-9_]/g, '_')
        .slice(0, 25) || 'viewer';
    const id = viewerId(login);
    this.knowLogin(id, login);
    const who = { user_id: id, user_login: login, user_name: act.viewer };
    switch (act.kind) {
      case 'follow':
        return this.emit({ type: 'channel.follow', broadcasterId, event: { ...who, followed_at: new Date().toISOString() } });
      case 'sub':
        return this.emit({
          type: 'channel.subscription.message',
          broadcasterId,
          event: {
            ...who,
            tier: '1000',
            message: { text: act.message, emotes: [] },
            cumulative_months: act.months,
            streak_months: act.months,
            duration_months: 1,
          },
        });
      case 'raid':
        return this.emit({
          type: 'channel.raid',
          broadcasterId,
          event: { from_broadcaster_user_id: id, from_broadcaster_user_login: login, from_broadcaster_user_name: act.viewer, viewers: act.viewers },
        });
      case 'cheer':
        return this.emit({ type: 'channel.cheer', broadcasterId, event: { ...who, is_anonymous: false, message: act.message, bits: act.bits } });
    }
  }

  /** A scripted sequence: each step after its delay (from the step before). */
  async script(steps: (EventSubEmit & { delayMs?: number })[]): Promise<{ messageId: string; delivered: number }[]> {
    const out = [];
    for (const step of steps) {
      if (step.delayMs) await new Promise((r) => setTimeout(r, step.delayMs));
      out.push(this.emit(step));
    }
    return out;
  }

  /** session_reconnect to every session: its reconnect_url keeps the session; notifications wait for the new connection. */
  reconnectAll(): number {
    let n = 0;
    for (const session of this.sessions.values()) {
      if (session.replaced || session.migrating) continue;
      const reconnectUrl = `${this.wsUrl}?reconnect=${session.id}&keepalive_timeout_seconds=${session.keepaliveSeconds}`;
      this.sendTo(session, { metadata: this.meta('session_reconnect'), payload: { session: this.wireSession(session, 'reconnecting', reconnectUrl) } });
      session.migrating = true;
      n += 1;
    }
    return n;
  }

  /** Revokes every subscription of a type (the user took the authorization back, or was banned). */
  revoke(type: string, status: string): number {
    let n = 0;
    for (const [id, sub] of this.subscriptions) {
      if (sub.type !== type) continue;
      this.subscriptions.delete(id);
      const session = this.sessions.get(sub.sessionId);
      if (session) this.sendTo(session, { metadata: this.meta('revocation', sub), payload: { subscription: this.wireSubscription(sub, status) } });
      n += 1;
    }
    return n;
  }

  /**
   * The channel took OnAir's authorization back (Twitch › Connections › Disconnect): every token
   * stops working, access and refresh alike, and each subscription is revoked with
   * `authorization_revoked`, as Twitch does.
   */
  revokeAuthorization(): number {
    this.tokens.access.clear();
    this.tokens.refresh.clear();
    this.tokens.owners.clear();
    this.tokens.changed();
    let n = 0;
    for (const type of new Set([...this.subscriptions.values()].map((s) => s.type))) n += this.revoke(type, 'authorization_revoked');
    return n;
  }

  /** Every session goes silent: no keepalives (a client must notice and connect again). */
  stall(): number {
    for (const s of this.sessions.values()) {
      s.stalled = true;
      if (s.keepaliveTimer) clearTimeout(s.keepaliveTimer);
    }
    return this.sessions.size;
  }

  /** Any text, as is, to every session (malformed payloads). */
  raw(text: string): void {
    for (const s of this.sessions.values()) this.sendRaw(s, text);
  }

  /** A notification for a subscription no client created. */
  notifyUnknown(type: string): void {
    for (const s of this.sessions.values()) {
      const sub = { id: randomUUID(), type, version: '2', condition: {}, sessionId: s.id, createdAt: new Date().toISOString(), token: '' };
      this.sendTo(s, {
        metadata: this.meta('notification', sub),
        payload: {
          subscription: this.wireSubscription(sub, 'enabled'),
          event: { user_id: '666', user_login: 'ghost', user_name: 'Ghost', followed_at: new Date().toISOString() },
        },
      });
    }
  }

  protected override onDrop(): void {
    for (const s of this.sessions.values()) s.ws.terminate();
  }

  override async close(): Promise<void> {
    for (const s of this.sessions.values()) {
      if (s.keepaliveTimer) clearTimeout(s.keepaliveTimer);
      s.ws.terminate();
    }
    this.wss.close();
    await super.close();
  }
}

/** A viewer's Twitch id from their login (digits, as Twitch's are; the same login gives the same id). */
function viewerId(login: string): string {
  let h = 7;
  for (const ch of login) h = (h * 33 + ch.charCodeAt(0)) % 1_000_000_007;
  return String(500_000_000 + h);
}

/** A stand-in avatar: a coloured disc with the user's initial colour from the id. */
function avatarSvg(id: string): string {
  let h = 0;
  for (const ch of id) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64" viewBox="0 0 64 64"><circle cx="32" cy="32" r="32" fill="hsl(${Math.abs(h) % 360} 60% 50%)"/><circle cx="32" cy="26" r="11" fill="#fff"/><path d="M12 56q20-24 40 0" fill="#fff"/></svg>`;
}

export async function startEventSubDouble(port = 0): Promise<EventSubDouble> {
  return new EventSubDouble().start(port);
}

/** The api environment that points Twitch EventSub and Helix at the double. */
export function eventSubDoubleEnv(d: EventSubDouble): Record<string, string> {
  return { TWITCH_EVENTSUB_URL: d.wsUrl, TWITCH_API_URL: d.helixUrl };
}
