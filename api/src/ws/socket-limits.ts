/**
 * The limits of `/ws`, in one place: the largest message, a per-socket message rate (a token bucket
 * refilled continuously), and a cap on the sockets one user holds on this replica. A socket that
 * breaks a limit is refused or closed alone; nothing here can stop the api or touch other sockets.
 */
export interface SocketLimitsConfig {
  maxMessageBytes: number;
  messagesPerSecond: number;
  burst: number;
  maxSocketsPerUser: number;
}

/** The WebSocket close code (RFC 6455 §7.4.1) for a socket ended for breaking a limit (the library itself closes an oversized message with 1009). */
export const CLOSE_POLICY_VIOLATION = 1008;

export type BudgetVerdict = 'ok' | 'refused' | 'close';

/**
 * One socket's message budget. A message over the rate is refused (the client is told once a
 * second, so a flood is not answered by a flood); one that keeps flooding after a whole further
 * burst was refused is closed.
 */
export class MessageBudget {
  private tokens: number;
  private last: number;
  private refusedInRow = 0;
  private lastToldAt = -Infinity;

  constructor(
    private readonly config: Pick<SocketLimitsConfig, 'messagesPerSecond' | 'burst'>,
    now = Date.now(),
  ) {
    this.tokens = config.burst;
    this.last = now;
  }

  take(now = Date.now()): BudgetVerdict {
    this.tokens = Math.min(this.config.burst, this.tokens + ((now - this.last) / 1000) * this.config.messagesPerSecond);
    this.last = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      this.refusedInRow = 0;
      return 'ok';
    }
    this.refusedInRow += 1;
    return this.refusedInRow > this.config.burst ? 'close' : 'refused';
  }

  /** Whether a refusal should be answered now (at most once a second). */
  shouldTell(now = Date.now()): boolean {
    if (now - this.lastToldAt < 1000) return false;
    this.lastToldAt = now;
    return true;
  }
}

/** Open sockets per user on this replica. */
export class SocketsPerUser {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  /** Whether one more socket of this user would be over the cap (checked before the handshake). */
  full(userId: string): boolean {
    return (this.open.get(userId) ?? 0) >= this.max;
  }

  /** Counts a socket in; false (and not counted) when the user is already at the cap. */
  add(userId: string): boolean {
    if (this.full(userId)) return false;
    this.open.set(userId, (this.open.get(userId) ?? 0) + 1);
    return true;
  }

  remove(userId: string): void {
    const n = (this.open.get(userId) ?? 0) - 1;
    if (n > 0) this.open.set(userId, n);
    else this.open.delete(userId);
  }
}
