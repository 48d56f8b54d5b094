import type { ChatPlatform } from './chat.ts';

/**
 * Each chat platform's brand colour, name and mark (a 24×24 SVG path), and the studio chat's own:
 * one table for every place a sender's platform is drawn — the studio's platform icons, the chat on
 * screen overlay page, and the lower third the media worker draws into the program.
 */
export const CHAT_SENDER_MARKS: Record<ChatPlatform | 'room', { color: string; label: string; path: string }> = {
  twitch: {
    color: '#9146FF',
    label: 'Twitch',
    path: 'M5 3 3.5 6.5V19h4v2h2.5l2-2h3L19.5 14V3H5Zm13 10.3L15.7 16h-3.8l-2 2v-2H6.5V4.5H18v8.8ZM15 7.5h-1.5v4.3H15V7.5Zm-4 0H9.5v4.3H11V7.5Z',
  },
  youtube: {
    color: '#FF0000',
    label: 'YouTube',
    path: 'M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4A2.5 2.5 0 0 0 2.4 7.2 26 26 0 0 0 2 12a26 26 0 0 0 .4 4.8 2.5 2.5 0 0 0 1.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8A26 26 0 0 0 22 12a26 26 0 0 0-.4-4.8ZM10 15V9l5.2 3L10 15Z',
  },
  facebook: {
    color: '#1877F2',
    label: 'Facebook',
    path: 'M22 12a10 10 0 1 0-11.6 9.9v-7H7.9V12h2.5V9.8c0-2.5 1.5-3.9 3.8-3.9 1.1 0 2.2.2 2.2.2v2.5h-1.2c-1.2 0-1.6.8-1.6 1.6V12h2.8l-.5 2.9h-2.3v7A10 10 0 0 0 22 12Z',
  },
  room: { color: '#6D7CFF', label: 'Studio chat', path: 'M7.9 20A9 9 0 1 0 4 16.1L2 22Z' },
};
