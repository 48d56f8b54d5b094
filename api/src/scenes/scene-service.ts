import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  acceptedScenePatchSchema,
  applyScenePatchFollowingLayouts,
  guestLeftOps,
  DEFAULT_DOCUMENT_LIMITS,
  defaultResolutionFor,
  OnAirError,
  projectChannels,
  userProjectsChannel,
  resolutionIdSchema,
  resolutionOptions,
  sceneTemplateOps,
  type AcceptedScenePatch,
  type DocumentLimits,
  type ProjectDetails,
  type ProjectPermission,
  type ProjectSummary,
  type SceneDocument,
  type SceneOp,
  type ScenePatch,
  type SceneTemplateId,
  type SceneRejection,
  type ServerMessage,
} from '@onair/protocol';
import type { Db } from '@onair/db';
import type { Logger } from '@onair/runtime';
import type { ProjectAccess } from '../access/project-access.ts';
import { assertPlanAllows, loadCurrentUser, type CurrentUser } from '../http/auth-context.ts';
import { writeDocumentSnapshot } from './document-snapshot.ts';
import { checkSceneUploads } from './scene-uploads.ts';
import type { Countdowns } from './countdowns.ts';
import { createProjectWithDocument, loadSceneDocument, writeSceneDocument } from './scene-store.ts';

const PROJECT_NOT_FOUND = 'This project does not exist.';

/** A refused patch as the api answers it: the catalogue code, the creator's words, and the rule in details. */
export function rejectionToError(rejection: SceneRejection): OnAirError {
  return new OnAirError(rejection.error, rejection.message, {
    rule: rejection.code,
    ...(rejection.opIndex === undefined ? {} : { opIndex: rejection.opIndex }),
    ...rejection.details,
  });
}

function summary(p: { id: string; name: string; resolution: string; version: number; createdAt: Date }): ProjectSummary {
  return { id: p.id, name: p.name, resolution: resolutionIdSchema.parse(p.resolution), version: p.version, createdAt: p.createdAt.toISOString() };
}

/**
 * Projects and their scene documents. Every accepted patch is written in one transaction that
 * holds the project row lock from the version check to the commit, so two editors patching the
 * same base version cannot both win: the second waits for the lock, then sees the new version.
 */
export class SceneService {
  constructor(
    private readonly db: Db,
    private readonly redis: Redis,
    private readonly logger: Logger,
    /** Who may do what in a project (spec §6). */
    private readonly access: ProjectAccess,
    /** The api's SCENE_MAX_* settings. */
    private readonly limits: DocumentLimits = DEFAULT_DOCUMENT_LIMITS,
    /** Whether a private page address is one of the api's own signed overlay pages (see own-page-urls.ts). */
    private readonly pageUrlTrusted: (url: string) => boolean = () => false,
    /** Countdown scenes: started and stopped by the patches that show and leave them. */
    private readonly countdowns: Countdowns | null = null,
  ) {}

  async createProject(user: CurrentUser, name: string, template: SceneTemplateId): Promise<ProjectSummary> {
    assertPlanAllows(user.entitlements, 'can-use-product');
    const project = await createProjectWithDocument(this.db, {
      ownerId: user.id,
      name,
      resolution: defaultResolutionFor(user.entitlements),
      template,
      entitlements: user.entitlements,
    });
    this.logger.info({ projectId: project.id, userId: user.id, template }, 'project created');
    await this.announceToLists([user.id], { type: 'projects.changed', change: 'created', project: summary(project) });
    return summary(project);
  }

  /** The studio header: the project and the caller's role in it. */
  async getProject(user: CurrentUser, projectId: string): Promise<ProjectDetails> {
    const role = await this.access.require(user, projectId, 'read project');
    const project = await this.db.project.findUnique({ where: { id: projectId } });
    if (!project) throw new OnAirError('NOT_FOUND', PROJECT_NOT_FOUND);
    return { ...summary(project), role };
  }

  async renameProject(user: CurrentUser, projectId: string, name: string): Promise<ProjectDetails> {
    const role = await this.access.require(user, projectId, 'update project');
    const project = await this.db.project.update({ where: { id: projectId }, data: { name } }).catch((err: unknown) => {
      // Deleted between the role check and the update.
      if ((err as { code?: string }).code === 'P2025') throw new OnAirError('NOT_FOUND', PROJECT_NOT_FOUND);
      throw err;
    });
    this.logger.info({ projectId, userId: user.id }, 'project renamed');
    const message: ServerMessage = { type: 'project.renamed', projectId, name: project.name };
    await this.redis.publish(projectChannels.details(projectId), JSON.stringify(message)).catch((err: unknown) => {
      // The name is saved; other studios show it on their next load.
      this.logger.warn({ err: (err as Error).message, projectId }, 'project rename publish failed');
    });
    const members = await this.db.projectMember.findMany({ where: { projectId }, select: { userId: true } });
    await this.announceToLists([project.ownerId, ...members.map((m) => m.userId)], { type: 'projects.changed', change: 'renamed', project: summary(project) });
    return { ...summary(project), role };
  }

  /** Every open Projects page of these users follows the change; saved already, so a failed publish is only logged. */
  private async announceToLists(userIds: string[], message: Extract<ServerMessage, { type: 'projects.changed' }>): Promise<void> {
    for (const userId of new Set(userIds)) {
      await this.redis.publish(userProjectsChannel(userId), JSON.stringify(message)).catch((err: unknown) => {
        this.logger.warn({ err: (err as Error).message, projectId: message.project.id }, 'project list publish failed');
      });
    }
  }

  /** The projects the caller owns and those they were given a role in. */
  async listProjects(user: CurrentUser): Promise<ProjectSummary[]> {
    const projects = await this.db.project.findMany({
      where: { OR: [{ ownerId: user.id }, { members: { some: { userId: user.id } } }] },
      orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
      include: { broadcasts: { where: { state: { in: ['starting', 'live', 'ending'] } }, select: { id: true }, take: 1 } },
    });
    // A creator back on Projects (after checkout, in another tab) sees which show is still on air.
    return projects.map((p) => ({ ...summary(p), live: p.broadcasts.length > 0 }));
  }

  /**
   * The project's version and resolution, when the caller's role holds the permission (ProjectAccess:
   * NOT_FOUND without a role, whether the project exists being none of their business).
   */
  async assertAccess(user: CurrentUser, projectId: string, permission: ProjectPermission = 'read project'): Promise<{ version: number; resolution: string }> {
    await this.access.require(user, projectId, permission);
    const project = await this.db.project.findUnique({ where: { id: projectId }, select: { version: true, resolution: true } });
    if (!project) throw new OnAirError('NOT_FOUND', PROJECT_NOT_FOUND);
    return project;
  }

  async getDocument(user: CurrentUser, projectId: string): Promise<SceneDocument> {
    await this.assertAccess(user, projectId);
    const doc = await loadSceneDocument(this.db, projectId);
    if (!doc) throw new OnAirError('NOT_FOUND', PROJECT_NOT_FOUND);
    return doc;
  }

  /** The countdown scene running in the project, with its time left (null when none runs). */
  async countdown(user: CurrentUser, projectId: string): Promise<{ sceneId: string; endsAt: string; remainingMs: number } | null> {
    await this.assertAccess(user, projectId);
    return (await this.countdowns?.view(projectId)) ?? null;
  }

  async resolutionChoices(user: CurrentUser, projectId: string) {
    const project = await this.assertAccess(user, projectId);
    return { current: resolutionIdSchema.parse(project.resolution), options: resolutionOptions(await this.planOf(user, projectId)) };
  }

  /**
   * Copies a template's scenes into the project (spec "copy templates"): its ops are made from the
   * document as it is under the project's row lock, so they fill the template's slots with the
   * sources the project has now and never meet a stale version.
   */
  async copyTemplate(user: CurrentUser, projectId: string, templateId: SceneTemplateId): Promise<AcceptedScenePatch> {
    const accepted = await this.applyPatch(user, projectId, (doc, entitlements) => ({
      baseVersion: doc.version,
      ops: sceneTemplateOps(doc, templateId, { newId: randomUUID, entitlements, userId: user.id }),
    }));
    this.logger.info({ projectId, userId: user.id, templateId, version: accepted.version }, 'scene template copied');
    return accepted;
  }

  /**
   * A guest left the room: the scenes that follow their layout hide the guest's tiles and re-flow
   * in one version, applied as the project's owner (the guest's leaving is nobody's edit). Nothing
   * happens when no following scene shows the guest.
   */
  async guestLeft(projectId: string, guestId: string): Promise<AcceptedScenePatch | null> {
    const doc = await loadSceneDocument(this.db, projectId);
    if (!doc || guestLeftOps(doc, guestId).length === 0) return null;
    const project = await this.db.project.findUnique({ where: { id: projectId }, select: { ownerId: true } });
    const owner = project ? await loadCurrentUser(this.db, project.ownerId) : null;
    if (!owner) return null;
    const accepted = await this.applyPatch(owner, projectId, (locked) => ({ baseVersion: locked.version, ops: guestLeftOps(locked, guestId) }));
    this.logger.info({ projectId, guestId, version: accepted.version }, 'a guest left: following scenes re-flowed');
    return accepted;
  }

  /**
   * `patch` is the request's, or made from the locked document (copyTemplate). `scheduledScenes`:
   * the api's own patch adding the scene of a scheduled broadcast (never a request's). Scenes that
   * follow their layout and whose cameras, guests, screens or game the patch changed are re-flowed
   * in the same version (applyScenePatchFollowingLayouts): the accepted ops carry the re-flow.
   */
  async applyPatch(
    user: CurrentUser,
    projectId: string,
    patch: ScenePatch | ((doc: SceneDocument, entitlements: CurrentUser['entitlements']) => { baseVersion: number; ops: SceneOp[] }),
    options: { scheduledScenes?: boolean } = {},
  ): Promise<AcceptedScenePatch> {
    await this.access.require(user, projectId, 'update project');
    const entitlements = await this.planOf(user, projectId);
    const accepted = await this.db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<{ version: number }[]>`
          SELECT version FROM projects WHERE id = ${projectId}::uuid FOR UPDATE`;
        if (!rows[0]) throw new OnAirError('NOT_FOUND', PROJECT_NOT_FOUND);
        const doc = await loadSceneDocument(tx, projectId);
        if (!doc) throw new OnAirError('NOT_FOUND', PROJECT_NOT_FOUND);
        const result = applyScenePatchFollowingLayouts(doc, typeof patch === 'function' ? patch(doc, entitlements) : patch, entitlements, {
          limits: this.limits,
          pageUrlTrusted: this.pageUrlTrusted,
          scheduledScenes: options.scheduledScenes ?? false,
        });
        if (!result.ok) throw rejectionToError(result.rejection);
        const uploadRefusal = await checkSceneUploads(tx, projectId, result.document);
        if (uploadRefusal) throw rejectionToError(uploadRefusal);
        await writeSceneDocument(tx, doc, result.document);
        return { document: result.document, accepted: acceptedScenePatchSchema.parse({ projectId, version: result.document.version, ops: result.ops }) };
      },
      // Waiting for another editor's row lock counts against the timeout, hence more than the default 5 s.
      { timeout: 15_000, maxWait: 5_000 },
    );
    await this.snapshot(accepted.document);
    // Before the patch is announced: the worker redrawing the program and a studio asking for the
    // time left on this patch then read the countdown it started.
    await this.countdowns?.onAccepted(accepted.document, accepted.accepted.ops).catch((err: unknown) => {
      this.logger.warn({ err: (err as Error).message, projectId }, 'countdown not started or stopped');
    });
    await this.publish(accepted.accepted);
    return accepted.accepted;
  }

  /** A project follows its owner's plan, whoever edits it (a co-host on Free edits a Premium show as Premium). */
  private async planOf(user: CurrentUser, projectId: string): Promise<CurrentUser['entitlements']> {
    const project = await this.db.project.findUnique({ where: { id: projectId }, select: { ownerId: true } });
    if (!project || project.ownerId === user.id) return user.entitlements;
    return (await loadCurrentUser(this.db, project.ownerId))?.entitlements ?? user.entitlements;
  }

  /** The newest document for media workers, written before the patch is announced (see document-snapshot.ts). */
  private async snapshot(document: SceneDocument): Promise<void> {
    try {
      await writeDocumentSnapshot(this.redis, document);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, projectId: document.projectId, version: document.version }, 'scene snapshot not written');
    }
  }

  /**
   * Published after the commit, so a subscriber never hears of a version it cannot read back.
   * Two commits can therefore be published out of order; subscribers treat a gap in versions by
   * fetching the document (see applyAcceptedPatch), which also covers a publish that failed here.
   */
  private async publish(accepted: AcceptedScenePatch): Promise<void> {
    try {
      await this.redis.publish(projectChannels.scene(accepted.projectId), JSON.stringify(accepted));
    } catch (err) {
      this.logger.warn({ err: (err as Error).message, projectId: accepted.projectId, version: accepted.version }, 'scene patch publish failed');
    }
  }
}
