import { useState } from 'react';
import type { Result } from '../../actions/result.ts';

/** A form's save: busy while it runs, the api's words when it fails. */
export function useSave(): { busy: boolean; error: string | null; run: (save: () => Promise<Result>) => Promise<boolean> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return {
    busy,
    error,
    run: async (save) => {
      setBusy(true);
      setError(null);
      const result = await save();
      setBusy(false);
      if (!result.ok) setError(result.message);
      return result.ok;
    },
  };
}
