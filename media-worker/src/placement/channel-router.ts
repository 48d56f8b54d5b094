import type { Redis } from 'ioredis';

type Handler = (message: string) => void;

/**
 * One Redis subscriber connection for every session of the worker: channels are subscribed when
 * the first handler arrives and dropped with the last, and each message goes to its channel's handlers.
 */
export class ChannelRouter {
  private readonly handlers = new Map<string, Set<Handler>>();

  constructor(private readonly subscriber: Redis) {
    subscriber.on('message', (channel: string, message: string) => {
      for (const handler of this.handlers.get(channel) ?? []) handler(message);
    });
  }

  async on(channel: string, handler: Handler): Promise<() => Promise<void>> {
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await this.subscriber.subscribe(channel);
    }
    set.add(handler);
    return async () => {
      set.delete(handler);
      if (set.size === 0 && this.handlers.get(channel) === set) {
        this.handlers.delete(channel);
        await this.subscriber.unsubscribe(channel).catch(() => undefined);
      }
    };
  }
}
