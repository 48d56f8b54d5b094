import tmi from 'tmi.js';
// The library's own IRC line parser, used by the guard below.
import tmiParser from 'tmi.js/lib/parser.js';
import { linkSegments, type ChatSegment } from '@onair/protocol';
import { ChatSendError, type ChatConnector, type ConnectorContext, type InboundChat } from './chat-connector.ts';
import { cleanPlatformText } from './connector-kit.ts';

const LOGIN_FAILED = /login authentication failed|login unsuccessful|improperly formatted auth/i;

/**
 * Twitch chat over its IRC-over-WebSocket interface through tmi.js: capabilities, PASS/NICK/JOIN,
 * PING/PONG and PRIVMSG are the library's. With the destination's token it logs in as the channel
 * (and can send); without one it reads anonymously (justinfan). 'Login authentication failed'
 * makes it refresh the token once and reconnect; when that fails too it goes on reading
 * anonymously. A lost connection is retried every CHAT_TWITCH_RECONNECT_MS (spec §9: 5 s).
 */
export class TwitchChatConnector implements ChatConnector {
  private client: tmi.Client | null = null;
  private stopped = false;
  private token: string | null = null;
  private refreshed = false;
  private readonly channel: string;

  constructor(private readonly ctx: ConnectorContext) {
    // The channel's IRC name is its login: the display name lower-cased (Twitch's logins are).
    this.channel = (ctx.destination.username ?? '').toLowerCase().replace(/[^a-z0-9_]/g, '');
  }

  start(): void {
    void this.open();
  }

  private async open(): Promise<void> {
    if (this.stopped) return;
    if (!this.channel) {
      this.ctx.onState('offline', 'This Twitch destination has no channel name.');
      return;
    }
    this.ctx.onState('connecting');
    this.token = await this.ctx.tokens.current().catch(() => null);
    this.connect();
  }

  private connect(): void {
    const url = new URL(this.ctx.config.TWITCH_CHAT_URL);
    const secure = url.protocol === 'wss:';
    const log = this.ctx.logger;
    const where = { destinationId: this.ctx.destination.id, platform: 'twitch' };
    const client = new tmi.Client({
      options: { skipUpdatingEmotesets: true, skipMembership: true, messagesLogLevel: 'info' },
      connection: {
        server: url.hostname,
        port: Number(url.port || (secure ? 443 : 80)),
        secure,
        reconnect: true,
        reconnectInterval: this.ctx.config.CHAT_TWITCH_RECONNECT_MS,
        reconnectDecay: 1,
        maxReconnectInterval: this.ctx.config.CHAT_TWITCH_RECONNECT_MS,
        timeout: 10_000,
      },
      ...(this.token ? { identity: { username: this.channel, password: () => `oauth:${this.token ?? ''}` } } : {}),
      channels: [this.channel],
      // The library's own lines (never the token): what it could not parse, its reconnects. It logs
      // every chat line at messagesLogLevel, which must be one of these three: it calls it.
      logger: {
        info: (m: string) => log.debug({ ...where, tmi: m }, 'twitch chat'),
        warn: (m: string) => log.info({ ...where, tmi: m }, 'twitch chat line dropped or odd'),
        error: (m: string) => log.info({ ...where, tmi: String(m) }, 'twitch chat'),
      },
    });
    guardMalformedLines(client, (line, err) => log.info({ ...where, line: line.slice(0, 200), err: err.message }, 'malformed twitch chat line dropped'));
    this.client = client;
    client.on('join', (_channel: string, _user: string, self: boolean) => {
      if (self) this.ctx.onState('live');
    });
    client.on('disconnected', (reason: string) => {
      if (this.stopped || this.client !== client) return;
      if (LOGIN_FAILED.test(reason)) {
        void this.onLoginFailed(client);
        return;
      }
      this.ctx.onState('reconnecting', 'The Twitch chat connection was lost. Reconnecting…');
    });
    client.on('message', (_channel: string, tags: tmi.ChatUserstate, message: string, self: boolean) => {
      // tmi.js emits a whisper as a message too: it is delivered once, as the private one it is.
      if (self || tags['message-type'] === 'whisper') return;
      this.deliver(tags, message, false);
    });
    client.on('whisper', (_from: string, tags: tmi.ChatUserstate, message: string, self: boolean) => {
      if (self) return;
      this.deliver(tags, message, true);
    });
    client.connect().catch(() => undefined);
  }

  /** One refresh and a reconnect; a second refusal falls back to reading anonymously. */
  private async onLoginFailed(client: tmi.Client): Promise<void> {
    await client.disconnect().catch(() => undefined);
    if (this.stopped) return;
    if (!this.refreshed && this.token) {
      this.refreshed = true;
      this.ctx.logger.info({ destinationId: this.ctx.destination.id }, 'twitch refused the chat token; refreshing once');
      this.token = await this.ctx.tokens.refresh().catch(() => null);
    } else {
      this.token = null;
    }
    if (!this.token) this.ctx.onState('reconnecting', 'Your Twitch account requires authentication. Reading the chat without it.');
    else this.ctx.onState('reconnecting');
    this.connect();
  }

  private deliver(tags: tmi.ChatUserstate, raw: string, isPrivate: boolean): void {
    const id = tags.id;
    if (typeof id !== 'string' || id === '' || typeof raw !== 'string') {
      this.ctx.logger.info({ destinationId: this.ctx.destination.id }, 'twitch chat message without an id dropped');
      return;
    }
    const text = cleanPlatformText(raw, this.ctx.logger, { destinationId: this.ctx.destination.id, platform: 'twitch' });
    const sentAt = Number(tags['tmi-sent-ts']);
    const message: InboundChat = {
      platformMessageId: id,
      sender: typeof tags['user-id'] === 'string' ? tags['user-id'] : null,
      displayName: (tags['display-name'] || tags.username || 'Twitch viewer').slice(0, 200),
      avatar: null,
      content: text,
      segments: twitchSegments(text, tags.emotes ?? null, this.ctx.config.TWITCH_EMOTE_URL),
      sentAt: Number.isFinite(sentAt) && sentAt > 0 ? new Date(sentAt) : new Date(),
      private: isPrivate,
      twitch: twitchStanding(tags),
    };
    void this.ctx.onMessages([message]);
  }

  async send(text: string): Promise<{ platformMessageId: string | null }> {
    const client = this.client;
    if (!client || !this.token) throw new ChatSendError('Your Twitch account requires authentication to send.');
    if (client.readyState() !== 'OPEN') throw new ChatSendError('The Twitch chat is not connected.');
    try {
      // A leading '/' or '.' would be a chat command: sent as a message, it is what the creator typed.
      await client.say(this.channel, /^[/.\\]/.test(text) ? ` ${text}` : text);
    } catch (err) {
      throw new ChatSendError(`Twitch did not take the message: ${String(err)}`);
    }
    // Twitch's IRC interface gives no id back for a message sent.
    return { platformMessageId: null };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const client = this.client;
    this.client = null;
    if (client) await client.disconnect().catch(() => undefined);
  }
}

/** Who wrote, from Twitch's tags: login, badges (broadcaster, moderator, vip, subscriber), first message in the channel. */
function twitchStanding(tags: tmi.ChatUserstate): NonNullable<InboundChat['twitch']> {
  const badges = (tags.badges ?? {}) as Record<string, string | undefined>;
  const flag = (v: unknown) => v === true || v === '1';
  return {
    login: String(tags.username ?? '').toLowerCase(),
    broadcaster: Boolean(badges.broadcaster),
    moderator: Boolean(badges.moderator) || flag(tags.mod),
    vip: Boolean(badges.vip) || flag((tags as Record<string, unknown>).vip),
    subscriber: Boolean(badges.subscriber || badges.founder) || flag(tags.subscriber),
    firstMessage: flag((tags as Record<string, unknown>)['first-msg']),
  };
}

/**
 * tmi.js throws on some malformed lines (a PRIVMSG without a channel, a NOTICE without text) from
 * inside the WebSocket's message handler, where nothing catches it: the process would die. Its
 * handler (`_onMessage`, bound when a connection opens) is replaced by one that hands each line to
 * the library on its own and drops, with a log line, those it cannot take. tmi.js 1.8.5 is no
 * longer maintained, so this internal is not going to move under us; the test of malformed lines
 * would catch it if it did.
 */
function guardMalformedLines(client: tmi.Client, dropped: (line: string, err: Error) => void): void {
  const internal = client as unknown as { _onMessage(event: { data: unknown }): void; handleMessage(message: unknown): void };
  const parse = (line: string) => tmiParser.msg(line);
  internal._onMessage = (event) => {
    for (const line of String(event.data).trim().split('\r\n')) {
      try {
        const message = parse(line);
        if (message) internal.handleMessage(message);
      } catch (err) {
        dropped(line, err as Error);
      }
    }
  };
}

/**
 * Twitch's emotes tag, `{id: ['start-end', …]}` in code points, turned into segments: the emote's
 * text becomes an image, the rest text with links.
 */
export function twitchSegments(text: string, emotes: Record<string, string[]> | null, emoteBase: string): ChatSegment[] {
  const chars = Array.from(text);
  const ranges: { start: number; end: number; id: string }[] = [];
  for (const [id, positions] of Object.entries(emotes ?? {})) {
    if (!/^[A-Za-z0-9_]+$/.test(id)) continue;
    for (const p of positions) {
      const m = /^(\d+)-(\d+)$/.exec(p);
      if (!m) continue;
      const start = Number(m[1]);
      const end = Number(m[2]);
      if (start <= end && end < chars.length) ranges.push({ start, end, id });
    }
  }
  ranges.sort((a, b) => a.start - b.start);
  const out: ChatSegment[] = [];
  let at = 0;
  for (const r of ranges) {
    if (r.start < at) continue;
    if (r.start > at) out.push(...linkSegments(chars.slice(at, r.start).join('')));
    out.push({ kind: 'emoticon', value: chars.slice(r.start, r.end + 1).join(''), url: `${emoteBase}/${r.id}/default/dark/1.0` });
    at = r.end + 1;
  }
  if (at < chars.length) out.push(...linkSegments(chars.slice(at).join('')));
  return out;
}
