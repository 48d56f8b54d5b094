import { create } from 'zustand';
import { DEFAULT_SCENE_TEMPLATE, type ProjectSummary, type SceneTemplateId, type SceneTemplateSummary } from '@onair/protocol';

export interface ProjectsState {
  status: 'idle' | 'loading' | 'ready' | 'unauthenticated' | 'error';
  projects: ProjectSummary[];
  error: string | null;
  /** The scene templates (spec "list templates"): what a new project starts from, or a project copies in. */
  templates: SceneTemplateSummary[];
  /** Spec: sceneTemplate.selectedTemplate, 'Beam' by default. */
  selectedTemplate: SceneTemplateId;
}

export function createProjectsStore() {
  return create<ProjectsState>()(() => ({ status: 'idle', projects: [], error: null, templates: [], selectedTemplate: DEFAULT_SCENE_TEMPLATE }));
}
