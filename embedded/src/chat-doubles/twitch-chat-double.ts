import { randomUUID } from 'node:crypto';
import { WebSocket, WebSocketServer } from 'ws';
import { ChatDoubleBase, json } from './double-http.ts';

/**
 * Twitch chat as a client meets it: IRC over WebSocket (irc-ws.chat.twitch.tv) with the tags and
 * commands capabilities, PASS oauth:<token> / NICK (or an anonymous justinfan nick with any
 * password), JOIN answered with ROOMSTATE (and USERSTATE when logged in), PING/PONG both ways,
 * PRIVMSG with tags (id, display-name, user-id, emotes, tmi-sent-ts), 'Login authentication failed'
 * for a token it does not know, and the OAuth token endpoint for refreshes (`/oauth2/token`).
 */
export interface TwitchChatLine {
  login: string;
  displayName?: string;
  text: string;
  /** Twitch's emotes tag: `25:0-4,6-10/1902:12-16`. */
  emotes?: string;
  id?: string;
  /** Twitch's badges tag: `moderator/1,subscriber/12`. */
  badges?: string;
  /** The first message of this viewer in the channel (Twitch's first-msg tag). */
  firstMsg?: boolean;
}

interface Client {
  ws: WebSocket;
  nick: string | null;
  token: string | null;
  registered: boolean;
  channels: Set<string>;
}

export class TwitchChatDouble extends ChatDoubleBase {
  private wss!: WebSocketServer;
  private readonly clients = new Set<Client>();
  /** Every PRIVMSG sent by a logged-in client: who, where, what. */
  readonly sent: { login: string; channel: string; text: string }[] = [];
  /** PONGs the double received after its own PINGs. */
  pongs = 0;

  constructor() {
    super('twitch');
    this.controls.set('say', (b) => this.say(String(b.channel), b as unknown as TwitchChatLine));
    this.controls.set('whisper', (b) => this.whisper(String(b.to), b as unknown as TwitchChatLine));
    this.controls.set('raw', (b) => this.raw(String(b.channel), String(b.line)));
    this.controls.set('sent', () => this.sent);
    this.controls.set('ping', () => this.ping());
    this.controls.set('joined', (b) => this.joined(String(b.channel)));
  }

  async start(port = 0): Promise<this> {
    await this.listen(async (r) => {
      if (r.method === 'POST' && r.path === '/oauth2/token') {
        const tokens = this.refresh(r.body as Record<string, string>);
        if (!tokens) return json(r.res, 400, { status: 400, message: 'Invalid refresh token' });
        return json(r.res, 200, {
          access_token: tokens.accessToken,
          refresh_token: tokens.refreshToken,
          expires_in: 14_400,
          scope: ['chat:read', 'chat:edit'],
          token_type: 'bearer',
        });
      }
      const emote = /^\/emoticons\/v2\/([A-Za-z0-9_]+)\/default\/dark\/1\.0$/.exec(r.path);
      if (r.method === 'GET' && emote) {
        r.res.writeHead(200, { 'content-type': 'image/svg+xml' }).end(emoteSvg(emote[1]!));
        return;
      }
      json(r.res, 404, { error: 'Not Found', status: 404, message: `no route ${r.method} ${r.path}` });
    }, port);
    this.wss = new WebSocketServer({ noServer: true });
    this.server.on('upgrade', (req, socket, head) => {
      if (this.isDown()) {
        socket.destroy();
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.onConnection(ws));
    });
    return this;
  }

  get wsUrl(): string {
    return this.url.replace(/^http/, 'ws');
  }

  protected override onDrop(): void {
    for (const c of this.clients) c.ws.terminate();
  }

  private onConnection(ws: WebSocket): void {
    const client: Client = { ws, nick: null, token: null, registered: false, channels: new Set() };
    this.clients.add(client);
    ws.on('close', () => this.clients.delete(client));
    ws.on('error', () => this.clients.delete(client));
    ws.on('message', (data) => {
      for (const line of data.toString().split('\r\n')) if (line.trim() !== '') this.onLine(client, line.trim());
    });
  }

  private send(client: Client, ...lines: string[]): void {
    if (client.ws.readyState === WebSocket.OPEN) client.ws.send(lines.map((l) => `${l}\r\n`).join(''));
  }

  private onLine(client: Client, line: string): void {
    const [command = '', ...rest] = line.split(' ');
    const arg = rest.join(' ');
    switch (command.toUpperCase()) {
      case 'CAP':
        this.send(client, `:tmi.twitch.tv CAP * ACK ${arg.replace(/^REQ /, '')}`);
        return;
      case 'PASS':
        client.token = arg.replace(/^oauth:/, '');
        return;
      case 'NICK': {
        const nick = arg.toLowerCase();
        const anonymous = /^justinfan\d+$/.test(nick);
        if (!anonymous && (!client.token || !this.access.has(client.token))) {
          this.send(client, ':tmi.twitch.tv NOTICE * :Login authentication failed');
          client.ws.close();
          return;
        }
        client.nick = nick;
        client.registered = true;
        this.send(
          client,
          `:tmi.twitch.tv 001 ${nick} :Welcome, GLHF!`,
          `:tmi.twitch.tv 002 ${nick} :Your host is tmi.twitch.tv`,
          `:tmi.twitch.tv 003 ${nick} :This server is rather new`,
          `:tmi.twitch.tv 004 ${nick} :-`,
          `:tmi.twitch.tv 375 ${nick} :-`,
          `:tmi.twitch.tv 372 ${nick} :You are in a maze of twisty passages, all alike.`,
          `:tmi.twitch.tv 376 ${nick} :>`,
        );
        if (!anonymous) this.send(client, `@badge-info=;badges=;color=;display-name=${nick};emote-sets=0;user-id=1;user-type= :tmi.twitch.tv GLOBALUSERSTATE`);
        return;
      }
      case 'PING':
        // As TMI answers: no prefix, the PING's parameter echoed (tmi.js sends a bare PING and
        // takes only a prefix-less PONG as its answer).
        this.send(client, `PONG ${arg || ':tmi.twitch.tv'}`);
        return;
      case 'PONG':
        this.pongs += 1;
        return;
      case 'JOIN': {
        if (!client.registered || !client.nick) return;
        for (const channel of arg.split(',')) {
          const chan = channel.toLowerCase();
          client.channels.add(chan);
          this.send(
            client,
            `:${client.nick}!${client.nick}@${client.nick}.tmi.twitch.tv JOIN ${chan}`,
            `:${client.nick}.tmi.twitch.tv 353 ${client.nick} = ${chan} :${client.nick}`,
            `:${client.nick}.tmi.twitch.tv 366 ${client.nick} ${chan} :End of /NAMES list`,
          );
          if (!/^justinfan/.test(client.nick))
            this.send(
              client,
              `@badge-info=;badges=broadcaster/1;color=;display-name=${client.nick};emote-sets=0;mod=0;subscriber=0;user-type= :tmi.twitch.tv USERSTATE ${chan}`,
            );
          this.send(client, `@emote-only=0;followers-only=-1;r9k=0;room-id=1;slow=0;subs-only=0 :tmi.twitch.tv ROOMSTATE ${chan}`);
        }
        return;
      }
      case 'PART':
        client.channels.delete(arg.toLowerCase());
        return;
      case 'PRIVMSG': {
        const m = /^(#\S+) :(.*)$/.exec(arg);
        if (!m || !client.nick || /^justinfan/.test(client.nick)) return;
        const chan = m[1]!.toLowerCase();
        this.sent.push({ login: client.nick, channel: chan, text: m[2]! });
        this.send(
          client,
          `@badge-info=;badges=broadcaster/1;color=;display-name=${client.nick};emote-sets=0;mod=0;subscriber=0;user-type= :tmi.twitch.tv USERSTATE ${chan}`,
        );
        // Twitch hands a message to everyone else in the channel, not back to its sender.
        const line = this.privmsgLine(chan, { login: client.nick, text: m[2]! });
        for (const other of this.clients) if (other !== client && other.channels.has(chan)) this.send(other, line);
        return;
      }
      default:
        this.send(client, `:tmi.twitch.tv 421 ${client.nick ?? '*'} ${command} :Unknown command`);
    }
  }

  private privmsgLine(channel: string, m: TwitchChatLine, command = 'PRIVMSG'): string {
    const badges = (m.badges ?? '').replace(/[; \r\n]/g, '');
    const tags = [
      'badge-info=',
      `badges=${badges}`,
      'color=#1E90FF',
      `display-name=${(m.displayName ?? m.login).replace(/[; \r\n]/g, '')}`,
      `emotes=${m.emotes ?? ''}`,
      `first-msg=${m.firstMsg ? 1 : 0}`,
      'flags=',
      `id=${m.id ?? randomUUID()}`,
      `mod=${/(^|,)moderator\//.test(badges) ? 1 : 0}`,
      'room-id=1',
      `subscriber=${/(^|,)subscriber\//.test(badges) ? 1 : 0}`,
      `tmi-sent-ts=${Date.now()}`,
      'turbo=0',
      `user-id=${this.userIdOf(m.login)}`,
      'user-type=',
    ].join(';');
    return `@${tags} :${m.login}!${m.login}@${m.login}.tmi.twitch.tv ${command} ${channel} :${m.text}`;
  }

  /** The Twitch user id this double gives a login (the same in every message; Helix doubles use it for chatters). */
  userIdOf(login: string): string {
    return String(Math.abs(hash(login)));
  }

  /** A viewer writes in the channel: every client that joined it receives the PRIVMSG. Returns the message id. */
  say(channel: string, m: TwitchChatLine): string {
    const chan = `#${channel.replace(/^#/, '').toLowerCase()}`;
    const id = m.id ?? randomUUID();
    const line = this.privmsgLine(chan, { ...m, id });
    for (const c of this.clients) if (c.channels.has(chan)) this.send(c, line);
    return id;
  }

  /** A whisper to a logged-in account (private: shown live, never in history). */
  whisper(to: string, m: TwitchChatLine): void {
    const line = this.privmsgLine(to.toLowerCase(), m, 'WHISPER');
    for (const c of this.clients) if (c.nick === to.toLowerCase()) this.send(c, line);
  }

  /** Any line, as is, to the clients of a channel (malformed IRC included). */
  raw(channel: string, line: string): void {
    const chan = `#${channel.replace(/^#/, '').toLowerCase()}`;
    for (const c of this.clients) if (c.channels.has(chan)) this.send(c, line);
  }

  /** The server's own keep-alive: every client must answer PONG. */
  ping(): void {
    for (const c of this.clients) this.send(c, 'PING :tmi.twitch.tv');
  }

  /** Nicks currently in a channel. */
  joined(channel: string): string[] {
    const chan = `#${channel.replace(/^#/, '').toLowerCase()}`;
    return [...this.clients].filter((c) => c.channels.has(chan)).map((c) => c.nick ?? '');
  }

  override async close(): Promise<void> {
    for (const c of this.clients) c.ws.terminate();
    this.wss.close();
    await super.close();
  }
}

/** A stand-in emote picture: a coloured face, its colour from the emote id. */
function emoteSvg(id: string): string {
  const hue = Math.abs(hash(id)) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="28" height="28" viewBox="0 0 28 28"><circle cx="14" cy="14" r="13" fill="hsl(${hue} 80% 55%)"/><circle cx="10" cy="11" r="2" fill="#111"/><circle cx="18" cy="11" r="2" fill="#111"/><path d="M8 17q6 6 12 0" stroke="#111" stroke-width="2" fill="none"/></svg>`;
}

function hash(s: string): number {
  let h = 0;
  for (const ch of s) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return h;
}

export async function startTwitchChatDouble(port = 0): Promise<TwitchChatDouble> {
  return new TwitchChatDouble().start(port);
}
