import { describe, expect, it } from 'vitest';
import { fragmentCandidates, offeredTracks } from './whip-routes.ts';

const OFFER = [
  'v=0',
  'o=- 1 1 IN IP4 127.0.0.1',
  's=-',
  't=0 0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'a=mid:0',
  'a=sendonly',
  'm=video 9 UDP/TLS/RTP/SAVPF 96 102',
  'a=mid:1',
  'a=sendonly',
  '',
].join('\r\n');

describe('WHIP SDP', () => {
  it("reads the offer's video as the picture and its audio as the sound, by mid", () => {
    expect(offeredTracks(OFFER)).toEqual([
      { mid: '0', type: 'microphone' },
      { mid: '1', type: 'camera' },
    ]);
    expect(offeredTracks('v=0\r\ns=-\r\n')).toEqual([]);
  });

  it('takes the candidates of a trickle fragment with their m-line', () => {
    const fragment = [
      'a=ice-ufrag:abc',
      'a=ice-pwd:def',
      'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'a=mid:0',
      'a=candidate:1 1 udp 2113937151 192.0.2.1 5000 typ host',
      'a=end-of-candidates',
    ].join('\r\n');
    expect(fragmentCandidates(fragment)).toEqual([{ candidate: 'candidate:1 1 udp 2113937151 192.0.2.1 5000 typ host', sdpMid: '0' }]);
  });
});
