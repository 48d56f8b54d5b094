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
  /** Settings changed: the running bot reloads them. */
  changed: 'onair:chatbot:changed',
} as const;
