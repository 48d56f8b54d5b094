import { create } from 'zustand';
import type { CanvasKind, Entitlements, PlanId, ProjectDetails, RenderState, ResolutionId, ResolutionOption, SceneDocument } from '@onair/protocol';
import type { PendingEdit } from '../model/optimistic-scene.ts';

/** A web page source's latest state from the render workers; `reason` says why it is not showing. */
export interface SourceRenderStatus {
  state: RenderState;
  reason: string | null;
}

/** What the studio panel stack can show over the canvas. */
export type StudioPanel = { kind: 'source-settings'; sourceId: string } | { kind: 'camera-settings'; sourceId: string } | null;

export interface StudioState {
  projectId: string | null;
  /** The project's name and the caller's role in it (the header). */
  project: ProjectDetails | null;
  status: 'idle' | 'loading' | 'ready' | 'unauthenticated' | 'error';
  error: string | null;
  /** The document as the server last confirmed it. */
  confirmed: SceneDocument | null;
  /** Edits of this studio not yet confirmed, oldest first; the first may be in flight. */
  pending: PendingEdit[];
  /** Id of the edit being sent, if any: one at a time, so versions follow each other. */
  sending: string | null;
  /** What the studio shows: `confirmed` with `pending` replayed on top. */
  document: SceneDocument | null;
  selectedLayerId: string | null;
  /** The canvas the editor shows and edits: the horizontal program or the vertical one (issue 20). */
  editCanvas: CanvasKind;
  userId: string | null;
  plan: PlanId;
  entitlements: Entitlements;
  resolution: { current: ResolutionId; options: ResolutionOption[] } | null;
  /** The live channel for other studios' edits. */
  connection: 'offline' | 'connecting' | 'live';
  panel: StudioPanel;
  /** Render state of web page sources by source id, as last relayed on the live channel. */
  renders: Record<string, SourceRenderStatus>;
  /** The countdown scene the server is timing, and when it ends on this browser's clock (ms). */
  countdown: { sceneId: string; endsAt: number } | null;
}

export function initialStudioState(): StudioState {
  return {
    projectId: null,
    project: null,
    status: 'idle',
    error: null,
    confirmed: null,
    pending: [],
    sending: null,
    document: null,
    selectedLayerId: null,
    editCanvas: 'horizontal',
    userId: null,
    plan: 'Free',
    entitlements: {},
    resolution: null,
    connection: 'offline',
    panel: null,
    renders: {},
    countdown: null,
  };
}

export function createStudioStore() {
  return create<StudioState>()(() => initialStudioState());
}
