import { create } from 'zustand';
import type { GuestTile, ProjectRole, RoomConnectionState } from '@onair/protocol';
import type { AudioMode, DevicePermissionStatus, MediaPermissionErrorType } from '../model/media.ts';

export interface MediaState {
  /** The room of the open project: joined once the api accepted us (spec §4 "Room"). */
  room: 'idle' | 'joining' | 'joined' | 'refused';
  roomError: string | null;
  /** Since when (epoch ms) the session waits in the queue for a media worker with room (room.waiting); null once one runs it. */
  waitingForWorkerSince: number | null;
  role: ProjectRole | null;
  /** The peer connection to the session's worker, as the studio shows it. */
  connection: 'idle' | RoomConnectionState;
  /** The host's own primary camera and microphone tracks (spec §4 "Sources"). */
  camera: MediaStreamTrack | null;
  microphone: MediaStreamTrack | null;
  /** A shared screen and its sound (spec §3 screen_share, screen_share_audio), while sharing. */
  screen: MediaStreamTrack | null;
  screenAudio: MediaStreamTrack | null;
  cameraOn: boolean;
  microphoneOn: boolean;
  cameraStatus: DevicePermissionStatus;
  microphoneStatus: DevicePermissionStatus;
  selectedCamera: string | null;
  selectedMicrophone: string | null;
  permissionError: MediaPermissionErrorType | null;
  audioMode: AudioMode;
  /** The composited program coming back from the worker. */
  preview: MediaStream | null;
  /** Guests' cameras forwarded to the host (Guests tab tiles): which guest is on which m-line, and its stream. */
  guestTiles: GuestTile[];
  tileStreams: Record<string, MediaStream>;
}

export function initialMediaState(): MediaState {
  return {
    room: 'idle',
    roomError: null,
    waitingForWorkerSince: null,
    role: null,
    connection: 'idle',
    camera: null,
    microphone: null,
    screen: null,
    screenAudio: null,
    cameraOn: true,
    microphoneOn: true,
    cameraStatus: 0,
    microphoneStatus: 0,
    selectedCamera: null,
    selectedMicrophone: null,
    permissionError: null,
    audioMode: 'music',
    preview: null,
    guestTiles: [],
    tileStreams: {},
  };
}

export function createMediaStore() {
  return create<MediaState>()(() => initialMediaState());
}
