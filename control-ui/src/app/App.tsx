import { createBrowserRouter, RouterProvider } from 'react-router';
import { reportRenderingError } from '../actions/client-errors.ts';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { TooltipProvider } from '../components/Tooltip.tsx';
import { routes } from './routes.tsx';

const router = createBrowserRouter(routes);

export function App() {
  return (
    <ErrorBoundary onError={(error, code) => void reportRenderingError(error, code)}>
      <TooltipProvider>
        <RouterProvider router={router} />
      </TooltipProvider>
    </ErrorBoundary>
  );
}
