import { create } from 'zustand';
import type {
  BroadcastView,
  DestinationOutput,
  DestinationPicker,
  DestinationType,
  DestinationView,
  EncoderSettings,
  StreamDestinationOption,
} from '@onair/protocol';
import type { DestinationField, DestinationFormValues } from '../model/destinations.ts';
import type { BroadcastSummary } from '../model/live-panel.ts';

export interface DestinationForm {
  type: DestinationType;
  /** The destination being edited; null when adding. */
  editing: DestinationView | null;
  values: DestinationFormValues;
  errors: Partial<Record<DestinationField, string>>;
  /** An error not tied to a field (plan limit, server). */
  formError: string | null;
  saving: boolean;
  /** Facebook targets of the edited destination, once loaded. */
  targets: StreamDestinationOption[] | null;
}

export interface DestinationsState {
  projectId: string | null;
  status: 'idle' | 'loading' | 'ready' | 'error';
  error: string | null;
  destinations: DestinationView[];
  limit: { maximum: number | null; count: number; reached: boolean } | null;
  /** The project's Auto Live (the last enabled Twitch destination then stays). */
  autoLive: boolean;
  picker: DestinationPicker | null;
  pickerOpen: boolean;
  form: DestinationForm | null;
  /** The destination waiting for the 'Remove destination?' answer. */
  removing: DestinationView | null;
  /** The destination whose authentication popup is open. */
  authenticating: string | null;
  broadcast: BroadcastView | null;
  /** Last reported output health by destination id. */
  health: Record<string, DestinationOutput>;
  /** The session's encoder as last reported with the health (stepped down when its server is short of CPU). */
  encoder: EncoderSettings | null;
  goingLive: boolean;
  /** Record the next broadcast (issue 19); the server refuses it in words on a plan without recording. */
  record: boolean;
  /** Seconds of pre-roll and post-roll padding at Go Live and End Broadcast; 0 is off (the default). */
  preRollSeconds: number;
  postRollSeconds: number;
  /** Go Live found destinations that are not ready: the check dialog names them (fix or skip). */
  goLiveCheckOpen: boolean;
  /** End Broadcast was pressed: the confirmation is open. */
  endConfirmOpen: boolean;
  /** After End Broadcast: how the broadcast went. */
  summary: BroadcastSummary | null;
}

export function initialDestinationsState(): DestinationsState {
  return {
    projectId: null,
    status: 'idle',
    error: null,
    destinations: [],
    limit: null,
    autoLive: false,
    picker: null,
    pickerOpen: false,
    form: null,
    removing: null,
    authenticating: null,
    broadcast: null,
    health: {},
    encoder: null,
    goingLive: false,
    record: false,
    preRollSeconds: 0,
    postRollSeconds: 0,
    goLiveCheckOpen: false,
    endConfirmOpen: false,
    summary: null,
  };
}

export function createDestinationsStore() {
  return create<DestinationsState>()(() => initialDestinationsState());
}
