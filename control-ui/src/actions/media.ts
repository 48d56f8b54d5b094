import type { ClientMessage, SendSize, ServerMessage } from '@onair/protocol';
import {
  audioConstraints,
  browserFamily,
  capturedMicrophoneId,
  classifyMediaError,
  devicePermissionStatus,
  encodingScaleFor,
  withOpusParameters,
  type AudioMode,
} from '../model/media.ts';
import { initialMediaState, useDeviceStore, useMediaStore } from '../stores/index.ts';

/** Spec §4 "Room" and §9: the host joins about 100 ms after the project loaded. */
const AUTO_JOIN_DELAY_MS = 100;
/** A dropped or closed peer connection is offered again after this pause. */
const RECONNECT_DELAY_MS = 500;
/** How often the connection is looked at: a connection the page itself closed fires no event. */
const WATCHDOG_MS = 500;
/** Spec §6: a host invites up to 10 guests; one receive-only m-line each for their camera tiles. */
const GUEST_TILES = 10;
/** Candidates are sent inside the offer; gathering on a LAN takes milliseconds, never wait longer than this. */
const GATHER_LIMIT_MS = 2000;

type Send = (message: ClientMessage) => void;
type RoomMessage = Extract<ServerMessage, { type: `room.${string}` }>;

interface Room {
  projectId: string;
  send: Send;
  pc: RTCPeerConnection | null;
  peerId: string | null;
  camera: RTCRtpTransceiver | null;
  microphone: RTCRtpTransceiver | null;
  ready: boolean;
  /** The deployment's STUN/TURN servers, told with the join. */
  iceServers: RTCIceServer[];
  timers: ReturnType<typeof setTimeout>[];
  watchdog: ReturnType<typeof setInterval> | undefined;
  reconnecting: ReturnType<typeof setTimeout> | undefined;
  /** Bumped by every publish, so an older one still awaiting the browser gives up. */
  generation: number;
  /** The size the program needs the camera at, as the media worker last told (room.sendSize). */
  cameraSize: SendSize | null;
}

let room: Room | null = null;

/** The studio's socket is open on this project: join its room (again, after a reconnect of the socket). */
export function enterRoom(projectId: string, send: Send): void {
  if (room && room.projectId === projectId) {
    room.send = send;
    room.ready = false;
  } else {
    leaveRoom();
    room = {
      projectId,
      send,
      pc: null,
      peerId: null,
      camera: null,
      microphone: null,
      ready: false,
      iceServers: [],
      timers: [],
      watchdog: undefined,
      reconnecting: undefined,
      generation: 0,
      cameraSize: null,
    };
    room.watchdog = setInterval(checkConnection, WATCHDOG_MS);
  }
  const current = room;
  useMediaStore.setState({ room: 'joining', roomError: null, waitingForWorkerSince: null });
  current.timers.push(setTimeout(() => current.send({ type: 'room.join', projectId }), AUTO_JOIN_DELAY_MS));
}

/** Leaves the room: the peer connection closes and local capture stops. */
export function leaveRoom(): void {
  if (!room) return;
  const leaving = room;
  room = null;
  for (const t of leaving.timers) clearTimeout(t);
  clearInterval(leaving.watchdog);
  clearTimeout(leaving.reconnecting);
  leaving.send({ type: 'room.leave', projectId: leaving.projectId });
  leaving.pc?.close();
  const { camera, microphone, screen, screenAudio } = useMediaStore.getState();
  for (const track of [camera, microphone, screen, screenAudio]) track?.stop();
  useMediaStore.setState(initialMediaState());
}

export function receiveRoomMessage(message: RoomMessage): void {
  if (!room || message.projectId !== room.projectId) return;
  switch (message.type) {
    case 'room.joined':
      room.iceServers = message.iceServers;
      useMediaStore.setState({ room: 'joined', role: message.role });
      return;
    case 'room.waiting':
      // Every media worker is full: the studio says so until one takes the session (room.ready).
      useMediaStore.setState({ waitingForWorkerSince: Date.now() - message.waitingSinceMs });
      return;
    case 'room.ready':
      // The session's worker is known: first time, or it moved to another worker (failover).
      useMediaStore.setState({ waitingForWorkerSince: null });
      room.ready = true;
      void publish();
      return;
    case 'room.answer':
      if (message.peerId === room.peerId) void acceptAnswer(room, message.sdp);
      return;
    case 'room.state':
      if (message.peerId !== room.peerId) return;
      if (message.state === 'closed') reconnect();
      return;
    case 'room.tiles':
      if (message.peerId === room.peerId) useMediaStore.setState({ guestTiles: message.tiles });
      return;
    case 'room.sendSize':
      if (message.peerId !== room.peerId) return;
      room.cameraSize = message.camera;
      void fitCameraEncoding(room);
      return;
  }
}

/**
 * Sends the camera no larger than the program shows it (issue 41): a guest in a grid tile is
 * encoded at about the tile's size, which the worker then decodes and scales cheaply. The browser
 * re-encodes at the new size within a frame or two when a scene makes the tile larger again.
 */
async function fitCameraEncoding(current: Room): Promise<void> {
  const sender = current.camera?.sender;
  const settings = sender?.track?.getSettings();
  if (!sender || !current.cameraSize || !settings?.width || !settings.height) return;
  const parameters = sender.getParameters();
  const encoding = parameters.encodings[0];
  if (!encoding) return;
  const scale = encodingScaleFor({ width: settings.width, height: settings.height }, current.cameraSize);
  if (encoding.scaleResolutionDownBy === scale) return;
  encoding.scaleResolutionDownBy = scale;
  await sender.setParameters(parameters).catch(() => undefined);
}

/** An error on the socket while joining is the room's refusal (spec §6: no 'join room' permission, or no role at all). */
export function receiveRoomError(message: Extract<ServerMessage, { type: 'error' }>): boolean {
  if (!room || useMediaStore.getState().room !== 'joining' || (message.code !== 'FORBIDDEN' && message.code !== 'NOT_FOUND')) return false;
  useMediaStore.setState({ room: 'refused', roomError: message.message });
  return true;
}

/** Camera on/off acts on the host's own primary camera track (spec §4 "Sources"). */
export async function toggleCamera(): Promise<void> {
  const state = useMediaStore.getState();
  if (state.cameraOn) {
    state.camera?.stop();
    await room?.camera?.sender.replaceTrack(null);
    useMediaStore.setState({ camera: null, cameraOn: false });
    return;
  }
  useMediaStore.setState({ cameraOn: true });
  const track = await captureCamera();
  if (track) await room?.camera?.sender.replaceTrack(track);
  if (room) await fitCameraEncoding(room);
}

/** Microphone on/off mutes the primary microphone track (it keeps its place in the connection). */
export function toggleMicrophone(): void {
  const { microphone, microphoneOn } = useMediaStore.getState();
  if (microphone) microphone.enabled = !microphoneOn;
  useMediaStore.setState({ microphoneOn: !microphoneOn });
}

export async function selectCameraDevice(deviceId: string): Promise<void> {
  useMediaStore.getState().camera?.stop();
  useMediaStore.setState({ selectedCamera: deviceId, camera: null });
  if (!useMediaStore.getState().cameraOn) return;
  const track = await captureCamera();
  if (track) await room?.camera?.sender.replaceTrack(track);
  if (room) await fitCameraEncoding(room);
}

export async function selectMicrophoneDevice(deviceId: string): Promise<void> {
  useMediaStore.getState().microphone?.stop();
  useMediaStore.setState({ selectedMicrophone: deviceId, microphone: null });
  const track = await captureMicrophone();
  if (track) await room?.microphone?.sender.replaceTrack(track);
}

/** Music or speech (spec §9): new capture constraints, and a new offer so the Opus settings follow. */
export async function setAudioMode(mode: AudioMode): Promise<void> {
  if (useMediaStore.getState().audioMode === mode) return;
  useMediaStore.getState().microphone?.stop();
  useMediaStore.setState({ audioMode: mode, microphone: null });
  if (room?.ready) await publish();
}

/** Shares a screen (with its sound when the browser offers it); the session gets it with a new offer. */
export async function shareScreen(): Promise<void> {
  if (useMediaStore.getState().screen) return;
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getDisplayMedia({ video: { frameRate: { ideal: 30 } }, audio: true });
  } catch (err) {
    // Cancelling the browser's picker is a choice, not an error.
    if ((err as { name?: string }).name !== 'NotAllowedError') reportFailure(err);
    return;
  }
  const screen = stream.getVideoTracks()[0] ?? null;
  const screenAudio = stream.getAudioTracks()[0] ?? null;
  // The browser's own "Stop sharing" ends the track.
  screen?.addEventListener('ended', () => void stopScreenShare());
  useMediaStore.setState({ screen, screenAudio });
  if (room?.ready) await publish();
}

export async function stopScreenShare(): Promise<void> {
  const { screen, screenAudio } = useMediaStore.getState();
  if (!screen && !screenAudio) return;
  screen?.stop();
  screenAudio?.stop();
  useMediaStore.setState({ screen: null, screenAudio: null });
  if (room?.ready) await publish();
}

function reportFailure(error: unknown): void {
  const e = error as { name?: string; message?: string };
  useMediaStore.setState({ permissionError: classifyMediaError(e, browserFamily(globalThis.navigator?.userAgent ?? '')) });
}

function refreshStatuses(failed: { camera?: boolean; microphone?: boolean } = {}): void {
  const { cameras, microphones } = useDeviceStore.getState();
  const { selectedCamera, selectedMicrophone } = useMediaStore.getState();
  useMediaStore.setState({
    cameraStatus: devicePermissionStatus({ asked: true, failed: failed.camera ?? false, devices: cameras, selected: selectedCamera }),
    microphoneStatus: devicePermissionStatus({ asked: true, failed: failed.microphone ?? false, devices: microphones, selected: selectedMicrophone }),
  });
}

async function captureCamera(): Promise<MediaStreamTrack | null> {
  const existing = useMediaStore.getState().camera;
  if (existing && existing.readyState === 'live') return existing;
  const { selectedCamera } = useMediaStore.getState();
  try {
    const stream = await navigator.mediaDevices.getUserMedia({
      video: { ...(selectedCamera ? { deviceId: { exact: selectedCamera } } : {}), width: { ideal: 1280 }, height: { ideal: 720 }, frameRate: { ideal: 30 } },
    });
    const track = stream.getVideoTracks()[0] ?? null;
    useMediaStore.setState({ camera: track, permissionError: null, selectedCamera: track?.getSettings().deviceId ?? selectedCamera });
    refreshStatuses();
    return track;
  } catch (err) {
    reportFailure(err);
    refreshStatuses({ camera: true });
    return null;
  }
}

async function captureMicrophone(): Promise<MediaStreamTrack | null> {
  const existing = useMediaStore.getState().microphone;
  if (existing && existing.readyState === 'live') return existing;
  const { selectedMicrophone, audioMode, microphoneOn } = useMediaStore.getState();
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: audioConstraints(audioMode, selectedMicrophone) });
    const track = stream.getAudioTracks()[0] ?? null;
    if (track) track.enabled = microphoneOn;
    const deviceId = capturedMicrophoneId(track?.getSettings().deviceId, useDeviceStore.getState().allMicrophones);
    useMediaStore.setState({ microphone: track, selectedMicrophone: deviceId ?? selectedMicrophone });
    refreshStatuses();
    return track;
  } catch (err) {
    reportFailure(err);
    refreshStatuses({ microphone: true });
    return null;
  }
}

/** A fresh peer connection and offer: first join, re-signal after a drop, or a moved session. */
async function publish(): Promise<void> {
  const current = room;
  if (!current) return;
  const generation = ++current.generation;
  clearTimeout(current.reconnecting);
  current.reconnecting = undefined;
  const wasConnected = current.pc !== null;
  current.pc?.close();
  current.pc = null;
  useMediaStore.setState({ connection: wasConnected ? 'reconnecting' : 'connecting' });

  const camera = useMediaStore.getState().cameraOn ? await captureCamera() : null;
  const microphone = await captureMicrophone();
  if (room !== current || generation !== current.generation) return;

  const pc = new RTCPeerConnection({ iceServers: current.iceServers });
  const peerId = crypto.randomUUID();
  current.pc = pc;
  current.peerId = peerId;
  current.camera = pc.addTransceiver(camera ?? 'video', { direction: 'sendonly' });
  current.microphone = pc.addTransceiver(microphone ?? 'audio', { direction: 'sendonly' });
  const { screen, screenAudio } = useMediaStore.getState();
  const screenTransceiver = screen ? pc.addTransceiver(screen, { direction: 'sendonly' }) : null;
  const screenAudioTransceiver = screenAudio ? pc.addTransceiver(screenAudio, { direction: 'sendonly' }) : null;
  const preview = pc.addTransceiver('video', { direction: 'recvonly' });
  const { role } = useMediaStore.getState();
  const hosting = role === 'host' || role === 'cohost';
  const tiles = hosting ? Array.from({ length: GUEST_TILES }, () => pc.addTransceiver('video', { direction: 'recvonly' })) : [];
  // The worker sends VP8 on these: offering only VP8 keeps the offer small (a dozen m-lines with
  // every codec Chromium knows run past what the socket takes in one message).
  for (const t of [preview, ...tiles]) onlyVp8(t);
  useMediaStore.setState({ guestTiles: [], tileStreams: {} });
  pc.addEventListener('track', (event) => {
    if (current.pc !== pc) return;
    if (event.transceiver === preview) useMediaStore.setState({ preview: new MediaStream([event.track]) });
    else if (tiles.includes(event.transceiver) && event.transceiver.mid) {
      const mid = event.transceiver.mid;
      useMediaStore.setState((s) => ({ tileStreams: { ...s.tileStreams, [mid]: new MediaStream([event.track]) } }));
    }
  });
  pc.addEventListener('connectionstatechange', () => {
    if (current.pc !== pc) return;
    if (pc.connectionState === 'connected') useMediaStore.setState({ connection: 'connected' });
    else if (pc.connectionState === 'failed' || pc.connectionState === 'disconnected') reconnect();
  });

  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc);
  if (current.pc !== pc || !pc.localDescription) return;
  current.send({
    type: 'room.offer',
    projectId: current.projectId,
    peerId,
    sdp: pc.localDescription.sdp,
    tracks: [
      { mid: current.camera.mid ?? '0', type: 'camera' as const },
      { mid: current.microphone.mid ?? '1', type: 'microphone' as const },
      ...(screenTransceiver?.mid ? [{ mid: screenTransceiver.mid, type: 'screen_share' as const }] : []),
      ...(screenAudioTransceiver?.mid ? [{ mid: screenAudioTransceiver.mid, type: 'screen_share_audio' as const }] : []),
    ],
    previewMid: preview.mid,
    guestMids: tiles.map((t) => t.mid).filter((mid): mid is string => mid !== null),
  });
}

async function acceptAnswer(current: Room, sdp: string): Promise<void> {
  const pc = current.pc;
  if (!pc || pc.signalingState !== 'have-local-offer') return;
  const mode = useMediaStore.getState().audioMode;
  await pc.setRemoteDescription({ type: 'answer', sdp: withOpusParameters(sdp, mode) });
  await fitCameraEncoding(current);
  if (mode === 'music' && current.microphone) {
    const sender = current.microphone.sender;
    const parameters = sender.getParameters();
    if (parameters.encodings[0]) {
      parameters.encodings[0].maxBitrate = 128_000;
      await sender.setParameters(parameters).catch(() => undefined);
    }
  }
}

function onlyVp8(transceiver: RTCRtpTransceiver): void {
  const codecs = globalThis.RTCRtpReceiver?.getCapabilities?.('video')?.codecs.filter((c) => /^video\/(VP8|rtx)$/i.test(c.mimeType));
  if (codecs?.some((c) => /vp8/i.test(c.mimeType))) transceiver.setCodecPreferences(codecs);
}

function gathered(pc: RTCPeerConnection): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      pc.removeEventListener('icegatheringstatechange', check);
      clearTimeout(limit);
      resolve();
    };
    const check = () => pc.iceGatheringState === 'complete' && done();
    const limit = setTimeout(done, GATHER_LIMIT_MS);
    pc.addEventListener('icegatheringstatechange', check);
  });
}

/** Re-signals once after a short pause, however many signs of trouble arrive meanwhile. */
function reconnect(): void {
  const current = room;
  if (!current || current.reconnecting || !current.ready) return;
  useMediaStore.setState({ connection: 'reconnecting' });
  current.reconnecting = setTimeout(() => {
    current.reconnecting = undefined;
    if (room === current) void publish();
  }, RECONNECT_DELAY_MS);
}

function checkConnection(): void {
  const pc = room?.pc;
  if (pc && (pc.connectionState === 'closed' || pc.signalingState === 'closed')) reconnect();
}
