// The project's live channel (`/ws`) is read by two pages: the studio (a host's) and the guest
// page. This is the one table of what each of them does with each server message. Every message
// type has its row, so a new type is added here once and the type checker refuses the table until
// it has one. The rows that depend on the page that opened the socket (what to do once subscribed,
// what an error means there, a guest's removal) are that page's own handlers, passed in; the type
// checker asks each page for all of them.
import type { ClientMessage, ServerMessage } from '@onair/protocol';
import type { HttpClient } from '../api/http-client.ts';
import { receiveSubscriptionUpdate } from './billing.ts';
import { receiveChatOnAir, receiveChatOnScreen } from './chat-on-screen.ts';
import { receiveDestinationMessage } from './destinations.ts';
import { receiveEventsMessage } from './events.ts';
import { receiveGuestEvent } from './guest-chat.ts';
import { receiveIngestMessage } from './ingest.ts';
import { receiveRoomMessage } from './media.ts';
import { receiveChatMessage, refreshChatDestinations } from './platform-chat.ts';
import { receiveProjectListChange } from './projects.ts';
import { receivePatch } from './scene-document.ts';
import { receiveProjectRename, receiveRenderStatus, refreshResolutionChoices } from './studio-updates.ts';

export type ProjectPage = 'studio' | 'guest';
export type ServerMessageType = ServerMessage['type'];
export type ServerMessageOf<T extends ServerMessageType> = Extract<ServerMessage, { type: T }>;

/** The socket a message came in on: its project, the page's HTTP client, and a way to answer. */
export interface ProjectSocket {
  projectId: string;
  client: HttpClient;
  send(message: ClientMessage): void;
}

export type ServerMessageHandler<T extends ServerMessageType> = (message: ServerMessageOf<T>, socket: ProjectSocket) => void;

/** The messages each page handles in its own way. */
const pageMessageTypes = ['subscribed', 'error', 'guest.removed'] as const;
type PageMessageType = (typeof pageMessageTypes)[number];
export type PageHandlers = { [T in PageMessageType]: ServerMessageHandler<T> };

/** Which page handles a message, and how; a page without a handler ignores it. */
type Row<T extends ServerMessageType> = { [P in ProjectPage]?: ServerMessageHandler<T> };
type Table = { [T in Exclude<ServerMessageType, PageMessageType>]: Row<T> };

/** A row both pages handle alike (the handler may take several types: it fits each of their rows). */
const both = <M extends ServerMessage>(handler: (message: M, socket: ProjectSocket) => void) => ({ studio: handler, guest: handler });

const table: Table = {
  // The socket's greeting and the answer to a ping: nothing to do on a project's page.
  ready: {},
  pong: {},
  // The room's media signaling: the host's camera and microphone on the studio, the guest's on the guest page.
  'room.joined': both(receiveRoomMessage),
  'room.ready': both(receiveRoomMessage),
  'room.waiting': both(receiveRoomMessage),
  'room.answer': both(receiveRoomMessage),
  'room.state': both(receiveRoomMessage),
  'room.tiles': both(receiveRoomMessage),
  'room.sendSize': both(receiveRoomMessage),
  // Guest Chat and who is in the room: both sides show them.
  'guest.chat': both(receiveGuestEvent),
  'guests.changed': both(receiveGuestEvent),
  'guest.refused': both(receiveGuestEvent),
  // The rest is the studio's: the scene, the broadcast, the chats and feeds of the platforms.
  'scene.patched': { studio: (message, socket) => receivePatch(message, socket.client) },
  'render.status': { studio: receiveRenderStatus },
  'project.renamed': { studio: receiveProjectRename },
  'projects.changed': { studio: receiveProjectListChange },
  'subscription.updated': {
    // The plan changed (checkout, cancel, renew in any tab): the server says what may be picked now.
    studio: (message, socket) => {
      receiveSubscriptionUpdate(message);
      void refreshResolutionChoices(socket.projectId, socket.client);
    },
  },
  'destination.event': {
    studio: (message) => {
      receiveDestinationMessage(message);
      refreshChatDestinations();
    },
  },
  'broadcast.state': { studio: receiveDestinationMessage },
  'broadcast.health': { studio: receiveDestinationMessage },
  'ingest.status': { studio: receiveIngestMessage },
  'ingest.feed': { studio: receiveIngestMessage },
  'chat.messages': { studio: receiveChatMessage },
  'chat.destinations': { studio: receiveChatMessage },
  'chat.history': { studio: receiveChatMessage },
  'chat.onScreen': { studio: receiveChatOnScreen },
  'chat.onAir': { studio: receiveChatOnAir },
  'events.new': { studio: receiveEventsMessage },
  // The partner area's feed of a channel, read on its own socket (channel-events.ts).
  'channel.events.new': {},
};

function isPageMessage(message: ServerMessage): message is ServerMessageOf<PageMessageType> {
  return (pageMessageTypes as readonly ServerMessageType[]).includes(message.type);
}

/** The handler of every server message on one page's socket: the table's row, or the page's own. */
export function projectMessageRouter(page: ProjectPage, own: PageHandlers): (message: ServerMessage, socket: ProjectSocket) => void {
  return (message, socket) => {
    // TypeScript does not correlate a message's type with its row's handler type (a union over
    // every type); the table's and PageHandlers' types make each pair agree.
    const handler = (isPageMessage(message) ? own[message.type] : table[message.type][page]) as ServerMessageHandler<ServerMessageType> | undefined;
    handler?.(message, socket);
  };
}
