import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useStudioStore } from '../../stores/index.ts';
import { ACCOUNT_SETTINGS_PATHS, type AccountSettingsPage } from './paths.ts';

/**
 * Opens Account Settings or Plan & Billing. From the studio it opens in a new tab: leaving the
 * studio's tab would stop its camera and take a live show off air (issue 52), so checkout and the
 * billing portal happen in that other tab while the studio keeps running.
 */
export function useOpenAccountSettings(): (page: AccountSettingsPage) => void {
  const navigate = useNavigate();
  const inStudio = useStudioStore((s) => s.projectId !== null);
  return useCallback(
    (page: AccountSettingsPage) => {
      const path = ACCOUNT_SETTINGS_PATHS[page];
      if (inStudio) window.open(path, '_blank', 'noopener');
      else void navigate(path);
    },
    [inStudio, navigate],
  );
}
