import { createBrowserRouter, RouterProvider } from 'react-router';
import { ErrorBoundary } from '../components/ErrorBoundary.tsx';
import { TooltipProvider } from '../components/Tooltip.tsx';
import { routes } from './routes.tsx';

const router = createBrowserRouter(routes);

export function App() {
  return (
    <ErrorBoundary>
      <TooltipProvider>
        <RouterProvider router={router} />
      </TooltipProvider>
    </ErrorBoundary>
  );
}
