import { z } from 'zod';
import { resolutionIdSchema, resolutionOptionSchema } from '../plans.ts';
import { projectRoleSchema } from '../signaling/roles.ts';
import { sceneDocumentSchema } from '../scene/document.ts';
import { sceneOpSchema, scenePatchSchema } from '../scene/patch.ts';
import { DEFAULT_SCENE_TEMPLATE, sceneTemplateIdSchema, sceneTemplateSummarySchema } from '../scene/scene-templates.ts';
import { defineEndpoint } from './endpoint.ts';

export const projectSummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  resolution: resolutionIdSchema,
  version: z.number().int().min(0),
  createdAt: z.iso.datetime(),
  /** In the project list (issue 52): the project is on air now (a broadcast starting, live or in its post-roll). */
  live: z.boolean().optional(),
});
export type ProjectSummary = z.infer<typeof projectSummarySchema>;

export const projectIdParamsSchema = z.object({ projectId: z.uuid() });

export const projectNameSchema = z.string().trim().min(1).max(100);

export const createProjectBodySchema = z.strictObject({
  name: projectNameSchema,
  /** The scene template the project starts from (spec: sceneTemplate, default 'Beam'). */
  template: sceneTemplateIdSchema.default(DEFAULT_SCENE_TEMPLATE),
});

export const createProjectEndpoint = defineEndpoint({
  id: 'createProject',
  method: 'post',
  path: '/api/v1/projects',
  summary:
    "Create a project from a scene template ('Beam' unless another is named): its scenes hold the host's camera (with its microphone), and the logo where the plan shows it.",
  tag: 'projects',
  access: 'user',
  body: createProjectBodySchema,
  response: projectSummarySchema,
  successStatus: 201,
});

export const listProjectsEndpoint = defineEndpoint({
  id: 'listProjects',
  method: 'get',
  path: '/api/v1/projects',
  summary: "The caller's projects, newest first.",
  tag: 'projects',
  access: 'user',
  response: z.object({ projects: z.array(projectSummarySchema) }),
});

/** A project as the studio header shows it: its summary and the caller's role in it (spec §6). */
export const projectDetailsSchema = projectSummarySchema.extend({ role: projectRoleSchema });
export type ProjectDetails = z.infer<typeof projectDetailsSchema>;

export const getProjectEndpoint = defineEndpoint({
  id: 'getProject',
  projectPermission: 'read project',
  method: 'get',
  path: '/api/v1/projects/:projectId',
  summary: "A project's name, resolution and version, with the caller's role in it.",
  tag: 'projects',
  access: 'user',
  params: projectIdParamsSchema,
  response: projectDetailsSchema,
});

export const renameProjectBodySchema = z.strictObject({ name: projectNameSchema });

export const renameProjectEndpoint = defineEndpoint({
  id: 'renameProject',
  projectPermission: 'update project',
  method: 'patch',
  path: '/api/v1/projects/:projectId',
  summary: 'Rename a project (1 to 100 characters, trimmed).',
  tag: 'projects',
  access: 'user',
  params: projectIdParamsSchema,
  body: renameProjectBodySchema,
  response: projectDetailsSchema,
});

export const getSceneDocumentEndpoint = defineEndpoint({
  id: 'getSceneDocument',
  projectPermission: 'read project',
  method: 'get',
  path: '/api/v1/projects/:projectId/scene',
  summary: 'The scene document of a project at its current version.',
  tag: 'scenes',
  access: 'user',
  params: projectIdParamsSchema,
  response: sceneDocumentSchema,
});

export const scenePatchResultSchema = z.object({
  version: z.number().int().min(1),
  /** The ops as accepted: defaults filled in, volumes clamped; what every studio and the worker replay. */
  ops: z.array(sceneOpSchema),
});
export type ScenePatchResult = z.infer<typeof scenePatchResultSchema>;

export const patchSceneEndpoint = defineEndpoint({
  id: 'patchScene',
  projectPermission: 'update project',
  method: 'patch',
  path: '/api/v1/projects/:projectId/scene',
  summary:
    'Apply a patch made against `baseVersion`, all ops or none. A stale base version answers 409 CONFLICT with details.currentVersion; a broken scene rule 422 SCENE_RULE_VIOLATED and a plan limit 403 PLAN_LIMIT_REACHED, both with details.rule.',
  tag: 'scenes',
  access: 'user',
  params: projectIdParamsSchema,
  body: scenePatchSchema,
  response: scenePatchResultSchema,
});

export const resolutionChoicesSchema = z.object({ current: resolutionIdSchema, options: z.array(resolutionOptionSchema) });

export const getResolutionChoicesEndpoint = defineEndpoint({
  id: 'getResolutionChoices',
  projectPermission: 'read project',
  method: 'get',
  path: '/api/v1/projects/:projectId/resolutions',
  summary: "The resolution selector: 480p, 720p and 1080p at 30 fps, each available or locked by the caller's plan. Change it with a setResolution scene op.",
  tag: 'scenes',
  access: 'user',
  params: projectIdParamsSchema,
  response: resolutionChoicesSchema,
});

/**
 * The countdown running in the project now (issue 19): which countdown scene and how long it has
 * left. `remainingMs` lets a browser count down on its own clock, however far it is from the api's.
 */
export const runningCountdownViewSchema = z.object({
  sceneId: z.uuid(),
  endsAt: z.iso.datetime(),
  remainingMs: z.number().int().min(0),
});
export type RunningCountdownView = z.infer<typeof runningCountdownViewSchema>;

export const getCountdownEndpoint = defineEndpoint({
  id: 'getCountdown',
  projectPermission: 'read project',
  method: 'get',
  path: '/api/v1/projects/:projectId/countdown',
  summary: 'The countdown scene running in the project now and its time left, or null when none runs.',
  tag: 'scenes',
  access: 'user',
  params: projectIdParamsSchema,
  response: z.object({ countdown: runningCountdownViewSchema.nullable() }),
});

export const listSceneTemplatesEndpoint = defineEndpoint({
  id: 'listSceneTemplates',
  method: 'get',
  path: '/api/v1/scene-templates',
  summary: "The scene templates a project can start from or copy in (spec: list templates), 'Beam' first.",
  tag: 'scenes',
  access: 'user',
  response: z.object({ templates: z.array(sceneTemplateSummarySchema), defaultTemplate: sceneTemplateIdSchema }),
});

export const copySceneTemplateBodySchema = z.strictObject({ templateId: sceneTemplateIdSchema });

export const copySceneTemplateEndpoint = defineEndpoint({
  id: 'copySceneTemplate',
  projectPermission: 'update project',
  method: 'post',
  path: '/api/v1/projects/:projectId/templates/copy',
  summary:
    "Copy a template's scenes into the project (spec: copy templates) as one scene patch on the current version: its slots filled with the project's own sources where it has them. Answers like a patch; over the plan's scene limit 403 PLAN_LIMIT_REACHED with details.rule.",
  tag: 'scenes',
  access: 'user',
  params: projectIdParamsSchema,
  body: copySceneTemplateBodySchema,
  response: scenePatchResultSchema,
});

export const projectEndpoints = [
  createProjectEndpoint,
  listProjectsEndpoint,
  getProjectEndpoint,
  renameProjectEndpoint,
  getSceneDocumentEndpoint,
  patchSceneEndpoint,
  getResolutionChoicesEndpoint,
  getCountdownEndpoint,
  listSceneTemplatesEndpoint,
  copySceneTemplateEndpoint,
] as const;
