import { describe, expect, it } from 'vitest';
import { resolveMicrophoneId, resolveWebcamId, selectableDevices } from './devices.ts';

const mics = [
  { deviceId: 'default', label: 'Default - Headset', groupId: 'g2' },
  { deviceId: 'communications', label: 'Communications - Headset', groupId: 'g2' },
  { deviceId: 'mic-builtin', label: 'Built-in', groupId: 'g1' },
  { deviceId: 'mic-headset', label: 'Headset', groupId: 'g2' },
  { deviceId: '', label: '', groupId: '' },
];
const cams = [
  { deviceId: 'cam-front', label: 'Front', groupId: 'c1' },
  { deviceId: 'cam-usb', label: 'USB', groupId: 'c2' },
];

describe('device rules (spec §4, §5)', () => {
  it('lists leave out the default and communications pseudo-devices and empty ids', () => {
    expect(selectableDevices(mics).map((d) => d.deviceId)).toEqual(['mic-builtin', 'mic-headset']);
  });

  it("microphone 'default' resolves to the default device", () => {
    expect(resolveMicrophoneId('default', mics)).toBe('mic-headset');
    expect(
      resolveMicrophoneId(
        'default',
        mics.filter((d) => d.deviceId !== 'default'),
      ),
    ).toBe('mic-builtin');
    expect(resolveMicrophoneId('default', [])).toBeNull();
  });

  it('an unknown microphone resets to none; a known one stays', () => {
    expect(resolveMicrophoneId('unplugged', mics)).toBeNull();
    expect(resolveMicrophoneId('mic-builtin', mics)).toBe('mic-builtin');
    expect(resolveMicrophoneId(null, mics)).toBeNull();
  });

  it("webcam 'default' resolves to the first webcam; an unknown one resets to none", () => {
    expect(resolveWebcamId('default', cams)).toBe('cam-front');
    expect(resolveWebcamId('cam-usb', cams)).toBe('cam-usb');
    expect(resolveWebcamId('gone', cams)).toBeNull();
    expect(resolveWebcamId('default', [])).toBeNull();
  });
});
