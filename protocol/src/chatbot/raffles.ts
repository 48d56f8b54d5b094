import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint.ts';
import { channelIdParamsSchema } from '../partner/channels.ts';

// Giveaways (raffles) of the chatbot (issue 40): the creator opens one with a keyword, an entry
// cost in points, the subscribers' luck and a duration; viewers enter by writing the keyword in
// chat; at the end one winner is drawn (a cryptographic random, weighted by tickets and luck),
// announced in chat and paid the Points program's raffle-win reward. Past giveaways stay listed.

/** How long a giveaway may run, in minutes. */
export const RAFFLE_DURATION_MINUTES = { min: 1, max: 24 * 60 } as const;
/** The subscribers' luck: a subscriber's ticket weighs this many times a viewer's (1: no luck). */
export const RAFFLE_LUCK_MAX = 10;
/** Tickets one viewer may hold (1: one entry per viewer, the default). */
export const RAFFLE_ENTRIES_MAX = 100;
/** Past giveaways listed. */
export const RAFFLE_HISTORY = 50;

export const raffleStatuses = ['open', 'drawn', 'cancelled'] as const;
export const raffleStatusSchema = z.enum(raffleStatuses);
export type RaffleStatus = z.infer<typeof raffleStatusSchema>;

export const raffleInputSchema = z.strictObject({
  /** What viewers write in chat to enter, as typed ('!raffle' or 'giveaway'); one word. */
  keyword: z
    .string()
    .trim()
    .min(1, 'This field is required')
    .max(32, 'Keep the keyword to 32 characters or fewer')
    .regex(/^!?[\p{L}\p{N}_-]+$/u, 'The keyword is one word of letters, digits, _ or -, with an optional leading !'),
  /** Points an entry costs (0: free); spent only with the Points program on. */
  entryCost: z.number().int().min(0).max(1_000_000_000).default(0),
  subscriberLuck: z.number().int().min(1).max(RAFFLE_LUCK_MAX).default(1),
  maxEntriesPerViewer: z.number().int().min(1).max(RAFFLE_ENTRIES_MAX).default(1),
  durationMinutes: z.number().int().min(RAFFLE_DURATION_MINUTES.min).max(RAFFLE_DURATION_MINUTES.max).default(5),
});
export type RaffleInput = z.input<typeof raffleInputSchema>;
export type RaffleSettings = z.output<typeof raffleInputSchema>;

export const raffleSchema = z.object({
  id: z.uuid(),
  keyword: z.string(),
  entryCost: z.number().int(),
  subscriberLuck: z.number().int(),
  maxEntriesPerViewer: z.number().int(),
  status: raffleStatusSchema,
  openedAt: z.iso.datetime(),
  closesAt: z.iso.datetime(),
  drawnAt: z.iso.datetime().nullable(),
  /** Viewers who entered, and their tickets together. */
  entrants: z.number().int(),
  tickets: z.number().int(),
  winner: z.object({ login: z.string(), points: z.number().int() }).nullable(),
});
export type Raffle = z.infer<typeof raffleSchema>;

const tag = 'chatbot';
const base = '/api/v1/partner/channels/:channelId/chatbot/raffles';
const raffleParams = z.object({ channelId: z.string().min(1).max(64), raffleId: z.uuid() });

export const listRafflesEndpoint = defineEndpoint({
  id: 'listChatbotRaffles',
  method: 'get',
  path: base,
  summary: 'Giveaways: the one running, if any, and the past ones, newest first.',
  tag,
  access: 'user',
  channelCapability: 'view chatbot',
  params: channelIdParamsSchema,
  response: z.object({ raffles: z.array(raffleSchema) }),
});

export const openRaffleEndpoint = defineEndpoint({
  id: 'openChatbotRaffle',
  method: 'post',
  path: base,
  summary: 'Opens a giveaway in the Twitch chat (one at a time); the bot announces it.',
  tag,
  access: 'user',
  channelCapability: 'edit chatbot loyalty',
  params: channelIdParamsSchema,
  body: raffleInputSchema,
  response: raffleSchema,
  successStatus: 201,
});

export const drawRaffleEndpoint = defineEndpoint({
  id: 'drawChatbotRaffle',
  method: 'post',
  path: `${base}/:raffleId/draw`,
  summary: 'Draws the winner now (before the end); the bot announces it in chat.',
  tag,
  access: 'user',
  channelCapability: 'edit chatbot loyalty',
  params: raffleParams,
  response: raffleSchema,
});

export const cancelRaffleEndpoint = defineEndpoint({
  id: 'cancelChatbotRaffle',
  method: 'post',
  path: `${base}/:raffleId/cancel`,
  summary: 'Cancels a running giveaway: no winner; the points spent on entries are given back.',
  tag,
  access: 'user',
  channelCapability: 'edit chatbot loyalty',
  params: raffleParams,
  response: raffleSchema,
});

export const raffleEndpoints = [listRafflesEndpoint, openRaffleEndpoint, drawRaffleEndpoint, cancelRaffleEndpoint] as const;
