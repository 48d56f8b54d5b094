import { create } from 'zustand';
import type { ProjectSummary } from '@onair/protocol';

export interface ProjectsState {
  status: 'idle' | 'loading' | 'ready' | 'unauthenticated' | 'error';
  projects: ProjectSummary[];
  error: string | null;
}

export function createProjectsStore() {
  return create<ProjectsState>()(() => ({ status: 'idle', projects: [], error: null }));
}
