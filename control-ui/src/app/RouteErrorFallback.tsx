import { useEffect } from 'react';
import { useRouteError } from 'react-router';
import { ErrorFallback } from '../components/ErrorFallback.tsx';

/** The router catches rendering errors of its routes before any outer boundary; this is its fallback. */
export function RouteErrorFallback() {
  const error = useRouteError();
  useEffect(() => {
    console.error('Rendering failed', error);
  }, [error]);
  return <ErrorFallback />;
}
