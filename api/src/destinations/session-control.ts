import type { PlanOutput } from '@onair/protocol';

/**
 * What the broadcast service asks of the studio session (placement: api → BullMQ `sessions` queue
 * → media worker → pipeline). Outputs carry the decrypted stream key: implementations pass them
 * on in the job payload or Redis message and never log them. `id` of each output is the
 * destination id, and the worker reports output status under that id.
 */
export interface SessionControl {
  /**
   * Start pushing the project's program to `outputs` (and recording it into `recordingId`'s parts
   * when given); resolves once the session accepted the command (not once every output is live).
   */
  startBroadcast(projectId: string, outputs: PlanOutput[], recordingId?: string | null): Promise<void>;
  /** Replace the live outputs (a destination toggled, added or removed while live); outputs not listed stop, the others are untouched. */
  setOutputs(projectId: string, outputs: PlanOutput[]): Promise<void>;
  /** Stop every output and the recording (End Broadcast, the plan's duration limit). */
  stopBroadcast(projectId: string): Promise<void>;
}
