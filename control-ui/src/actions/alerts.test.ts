import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ALERT_SETTINGS } from '@onair/protocol';
import { initialAlertsState, useAlertsStore } from '../stores/index.ts';
import { alertSoundValue, setAlertSound } from './alerts.ts';

const SOUND = '00000000-0000-4000-8000-0000000000a1';

beforeEach(() =>
  useAlertsStore.setState({ ...initialAlertsState(), status: 'ready', saved: DEFAULT_ALERT_SETTINGS, draft: structuredClone(DEFAULT_ALERT_SETTINGS) }),
);

describe('the Sound field of an alert (issue 39: uploaded sounds)', () => {
  it('picks an uploaded sound by its upload, and a built-in one again without it', () => {
    setAlertSound('follow', `upload:${SOUND}`);
    expect(useAlertsStore.getState().draft!.follow).toMatchObject({ sound: 'upload', soundUploadId: SOUND });
    expect(alertSoundValue(useAlertsStore.getState().draft!.follow)).toBe(`upload:${SOUND}`);
    setAlertSound('follow', 'bell');
    expect(useAlertsStore.getState().draft!.follow).toMatchObject({ sound: 'bell', soundUploadId: null });
    expect(alertSoundValue(useAlertsStore.getState().draft!.follow)).toBe('bell');
    // Other alerts are left as they were.
    expect(useAlertsStore.getState().draft!.sub).toEqual(DEFAULT_ALERT_SETTINGS.sub);
  });
});
