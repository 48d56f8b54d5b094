import { Router } from 'express';
import {
  copySceneTemplateEndpoint,
  createProjectEndpoint,
  DEFAULT_SCENE_TEMPLATE,
  getCountdownEndpoint,
  getProjectEndpoint,
  getResolutionChoicesEndpoint,
  getSceneDocumentEndpoint,
  listProjectsEndpoint,
  patchSceneEndpoint,
  listSceneTemplatesEndpoint,
  renameProjectEndpoint,
  sceneTemplateSummaries,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import { authenticate, getCurrentUser, type SessionResolver } from '../http/auth-context.ts';
import { mount } from '../http/mount.ts';
import type { SceneService } from './scene-service.ts';

export function projectRoutes(deps: { db: Db; scenes: SceneService; resolveSession: SessionResolver }): Router {
  const router = Router();
  router.use('/api/v1/projects', authenticate(deps.db, deps.resolveSession));
  router.use(listSceneTemplatesEndpoint.path, authenticate(deps.db, deps.resolveSession));
  mount(router, createProjectEndpoint, async ({ body }, { req }) => deps.scenes.createProject(getCurrentUser(req), body.name, body.template));
  mount(router, listProjectsEndpoint, async (_input, { req }) => ({ projects: await deps.scenes.listProjects(getCurrentUser(req)) }));
  mount(router, getProjectEndpoint, async ({ params }, { req }) => deps.scenes.getProject(getCurrentUser(req), params.projectId));
  mount(router, renameProjectEndpoint, async ({ params, body }, { req }) => deps.scenes.renameProject(getCurrentUser(req), params.projectId, body.name));
  mount(router, getSceneDocumentEndpoint, async ({ params }, { req }) => deps.scenes.getDocument(getCurrentUser(req), params.projectId));
  mount(router, patchSceneEndpoint, async ({ params, body }, { req }) => {
    const accepted = await deps.scenes.applyPatch(getCurrentUser(req), params.projectId, body);
    return { version: accepted.version, ops: accepted.ops };
  });
  mount(router, listSceneTemplatesEndpoint, async () => ({ templates: sceneTemplateSummaries(), defaultTemplate: DEFAULT_SCENE_TEMPLATE }));
  mount(router, copySceneTemplateEndpoint, async ({ params, body }, { req }) => {
    const accepted = await deps.scenes.copyTemplate(getCurrentUser(req), params.projectId, body.templateId);
    return { version: accepted.version, ops: accepted.ops };
  });
  mount(router, getResolutionChoicesEndpoint, async ({ params }, { req }) => deps.scenes.resolutionChoices(getCurrentUser(req), params.projectId));
  mount(router, getCountdownEndpoint, async ({ params }, { req }) => ({ countdown: await deps.scenes.countdown(getCurrentUser(req), params.projectId) }));
  return router;
}
