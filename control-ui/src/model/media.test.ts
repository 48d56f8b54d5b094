import { describe, expect, it } from 'vitest';
import {
  audioConstraints,
  browserFamily,
  capturedMicrophoneId,
  classifyMediaError,
  devicePermissionStatus,
  encodingScaleFor,
  withOpusParameters,
} from './media.ts';

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15';

describe('classifyMediaError', () => {
  it('tells a system block from a user refusal where the browser says so', () => {
    expect(classifyMediaError({ name: 'NotAllowedError', message: 'Permission denied by system' }, browserFamily(CHROME))).toBe('SystemPermissionDenied');
    expect(classifyMediaError({ name: 'NotAllowedError', message: 'Permission denied' }, browserFamily(CHROME))).toBe('UserPermissionDenied');
    expect(
      classifyMediaError({ name: 'NotAllowedError', message: 'The request is not allowed by the user agent or the platform' }, browserFamily(SAFARI)),
    ).toBe('UserPermissionDenied');
  });

  it('reports a busy camera as CouldNotStartVideoSource, with Firefox AbortError included', () => {
    expect(classifyMediaError({ name: 'NotReadableError', message: 'Could not start video source' }, 'chromium')).toBe('CouldNotStartVideoSource');
    expect(classifyMediaError({ name: 'AbortError', message: 'Starting videoinput failed' }, browserFamily(FIREFOX))).toBe('CouldNotStartVideoSource');
    expect(classifyMediaError({ name: 'AbortError' }, 'chromium')).toBe('Generic');
    expect(classifyMediaError({ name: 'OverconstrainedError' }, 'chromium')).toBe('Generic');
  });
});

describe('devicePermissionStatus (spec §4)', () => {
  const devices = [{ deviceId: 'a' }, { deviceId: 'b' }];
  it('is 0 before asking, 1 when the choice is there, 2 when it is gone, 3 when nothing is', () => {
    expect(devicePermissionStatus({ asked: false, failed: false, devices, selected: 'a' })).toBe(0);
    expect(devicePermissionStatus({ asked: true, failed: false, devices, selected: 'a' })).toBe(1);
    expect(devicePermissionStatus({ asked: true, failed: false, devices, selected: null })).toBe(1);
    expect(devicePermissionStatus({ asked: true, failed: false, devices, selected: 'z' })).toBe(2);
    expect(devicePermissionStatus({ asked: true, failed: false, devices: [], selected: 'a' })).toBe(3);
    expect(devicePermissionStatus({ asked: true, failed: true, devices, selected: 'a' })).toBe(3);
  });
});

describe('the microphone a captured track uses', () => {
  const mics = [
    { deviceId: 'default', groupId: 'g2', label: 'Default - Headset' },
    { deviceId: 'mic-1', groupId: 'g1', label: 'Built-in' },
    { deviceId: 'mic-2', groupId: 'g2', label: 'Headset' },
  ];
  it("resolves Chromium's 'default' pseudo-device to the real one, so the status is not 'unavailable'", () => {
    expect(capturedMicrophoneId('default', mics)).toBe('mic-2');
    expect(capturedMicrophoneId('mic-1', mics)).toBe('mic-1');
    expect(capturedMicrophoneId(undefined, mics)).toBeUndefined();
    // Devices not listed yet: kept as reported, resolved on the next capture.
    expect(capturedMicrophoneId('default', [])).toBe('default');
  });
});

describe('audio modes (spec §9)', () => {
  it('turns processing off and asks for stereo in music mode, on in speech mode', () => {
    expect(audioConstraints('music', 'mic-1')).toMatchObject({
      deviceId: { exact: 'mic-1' },
      echoCancellation: false,
      autoGainControl: false,
      noiseSuppression: false,
      channelCount: { ideal: 2 },
      sampleRate: { ideal: 48000 },
    });
    expect(audioConstraints('speech', null)).toMatchObject({ echoCancellation: true, autoGainControl: true, noiseSuppression: true });
  });

  it('writes 128 kbit/s stereo without DTX for music and DTX for speech into the Opus fmtp', () => {
    const sdp = ['m=audio 9 UDP/TLS/RTP/SAVPF 111', 'a=rtpmap:111 opus/48000/2', 'a=fmtp:111 minptime=10;useinbandfec=1;usedtx=1', ''].join('\r\n');
    expect(withOpusParameters(sdp, 'music')).toContain('a=fmtp:111 minptime=10;useinbandfec=1;stereo=1;sprop-stereo=1;maxaveragebitrate=128000;usedtx=0');
    expect(withOpusParameters(sdp, 'speech')).toContain('a=fmtp:111 minptime=10;useinbandfec=1;usedtx=1');
  });
});

describe('the camera sent at the size the program needs (issue 41)', () => {
  it('scales a 1280×720 camera down to a 320×180 grid tile, and not below what either side needs', () => {
    expect(encodingScaleFor({ width: 1280, height: 720 }, { width: 320, height: 180 })).toBe(4);
    // A square tile of a cover-fitted camera needs the height: 720 / 360.
    expect(encodingScaleFor({ width: 1280, height: 720 }, { width: 360, height: 360 })).toBe(2);
    expect(encodingScaleFor({ width: 640, height: 480 }, { width: 427, height: 240 })).toBe(1.5);
  });

  it('never scales up, and never below an eighth', () => {
    expect(encodingScaleFor({ width: 1280, height: 720 }, { width: 1920, height: 1080 })).toBe(1);
    expect(encodingScaleFor({ width: 3840, height: 2160 }, { width: 320, height: 180 })).toBe(8);
  });
});
