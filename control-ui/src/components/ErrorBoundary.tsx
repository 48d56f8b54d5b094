import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ErrorFallback, newErrorCode } from './ErrorFallback.tsx';

export interface ErrorBoundaryProps {
  children: ReactNode;
  /** Told of every rendering failure caught, with the code the page shows (the app reports it to the api). */
  onError?: ((error: Error, code: string) => void) | undefined;
}

interface ErrorBoundaryState {
  error: Error | null;
  code: string | null;
}

/**
 * Spec §8: a rendering failure shows 'An error has occurred' instead of a blank page, and is
 * reported: to the console, and to `onError` (the app sends it to the api for operators).
 * Route components are caught by the router's own fallback; this catches everything around it.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { error: null, code: null };

  static getDerivedStateFromError(error: Error): ErrorBoundaryState {
    return { error, code: newErrorCode() };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    const code = this.state.code ?? newErrorCode();
    console.error(`Rendering failed (error code ${code})`, error, info.componentStack);
    this.props.onError?.(error, code);
  }

  override render() {
    return this.state.error ? <ErrorFallback code={this.state.code ?? undefined} /> : this.props.children;
  }
}
