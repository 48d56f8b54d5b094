import { useEffect, useMemo } from 'react';
import { useRouteError } from 'react-router';
import { reportRenderingError } from '../actions/client-errors.ts';
import { ErrorFallback, newErrorCode } from '../components/ErrorFallback.tsx';

/** The router catches rendering errors of its routes before any outer boundary; this is its fallback (reported like the boundary's). */
export function RouteErrorFallback() {
  const error = useRouteError();
  const code = useMemo(() => newErrorCode(), []);
  useEffect(() => {
    console.error(`Rendering failed (error code ${code})`, error);
    void reportRenderingError(error, code);
  }, [error, code]);
  return <ErrorFallback code={code} />;
}
