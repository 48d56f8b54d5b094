/** Where the chatbots keep what is live in Redis. */
export const chatbotKeys = {
  /** The replica running a channel's bot (its connector lease). */
  owner: (channelId: string) => `onair:chatbot:owner:${channelId}`,
  /** The running bot's connection state, `{state, error?, at}`, written by its owner while it runs. */
  state: (channelId: string) => `onair:chatbot:state:${channelId}`,
  /** A message or event a bot acted on (SET NX): no second reply after a takeover. */
  handled: (channelId: string, id: string) => `onair:chatbot:handled:${channelId}:${id}`,
  /** A link a channel's bot previewed lately (SET NX with a TTL): the same link is not fetched again. */
  preview: (channelId: string, urlHash: string) => `onair:chatbot:preview:${channelId}:${urlHash}`,
  /** A cooldown (command, user, figures) or a !permit: its end on the bot's clock, ms (issue 40: survives a takeover). */
  cooldown: (channelId: string, key: string) => `onair:chatbot:cooldown:${channelId}:${key}`,
  permit: (channelId: string, login: string) => `onair:chatbot:permit:${channelId}:${login}`,
  /** The hate-raid guard: a hash {armedUntil, activeUntil}. */
  guard: (channelId: string) => `onair:chatbot:guard:${channelId}`,
  /** First-time chatters lately (a sorted set by time of `userId messageId`). */
  firstTimers: (channelId: string) => `onair:chatbot:first-timers:${channelId}`,
  /** Viewers purged while the guard is on (a set of user ids). */
  purged: (channelId: string) => `onair:chatbot:purged:${channelId}`,
  /** Settings changed: the running bot reloads them. */
  changed: 'onair:chatbot:changed',
} as const;
