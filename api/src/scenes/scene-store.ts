import { randomUUID } from 'node:crypto';
import {
  cropSchema,
  newProjectFromTemplate,
  OnAirError,
  sceneDocumentSchema,
  type Entitlements,
  type Layer,
  type ResolutionId,
  type Scene,
  type SceneDocument,
  type SceneTemplateId,
  type Source,
  verticalTransformSchema,
} from '@onair/protocol';
import { Prisma, type Db } from '@onair/db';

/** A Prisma client or an open transaction: reads and writes work the same in both. */
type DbClient = Db | Prisma.TransactionClient;

/**
 * The scene document lives in normalised tables (scenes, sources, layers) so the worker issue,
 * reports and migrations can query it; this module is the only one that maps rows to the
 * document and writes a new document back as the difference from the old one.
 */
export async function loadSceneDocument(db: DbClient, projectId: string): Promise<SceneDocument | null> {
  const project = await db.project.findUnique({
    where: { id: projectId },
    include: {
      scenes: { orderBy: [{ order: 'asc' }, { createdAt: 'asc' }], include: { layers: { orderBy: { zIndex: 'asc' } } } },
      sources: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
    },
  });
  if (!project) return null;
  const parsed = sceneDocumentSchema.safeParse({
    projectId: project.id,
    version: project.version,
    resolution: project.resolution,
    activeSceneId: project.activeSceneId,
    scenes: project.scenes.map((s) => ({
      id: s.id,
      name: s.name,
      order: s.order,
      kind: s.kind,
      ...(s.countdown === null ? {} : { countdown: s.countdown }),
      ...(s.followedLayout === null ? {} : { followedLayout: s.followedLayout }),
      deletedAt: s.deletedAt?.toISOString() ?? null,
      layers: s.layers.map((l) => ({
        id: l.id,
        sourceId: l.sourceId,
        x: l.x,
        y: l.y,
        width: l.width,
        height: l.height,
        crop: cropSchema.parse(l.crop),
        zIndex: l.zIndex,
        opacity: l.opacity,
        visible: l.visible,
        ...(l.vertical === null ? {} : { vertical: verticalTransformSchema.parse(l.vertical) }),
      })),
    })),
    sources: project.sources.map((s) => ({ id: s.id, kind: s.kind, name: s.name, settings: s.settings })),
  });
  // Rows are only ever written from validated documents; a row that does not parse is a service fault.
  if (!parsed.success) throw new OnAirError('INTERNAL', 'The stored scene document is not valid.', { projectId });
  return parsed.data;
}

function layerRow(sceneId: string, l: Layer) {
  // A vertical box, once set, is only ever changed (never taken away), so an absent one is left as stored.
  return {
    id: l.id,
    sceneId,
    sourceId: l.sourceId,
    x: l.x,
    y: l.y,
    width: l.width,
    height: l.height,
    crop: l.crop,
    zIndex: l.zIndex,
    opacity: l.opacity,
    visible: l.visible,
    ...(l.vertical ? { vertical: l.vertical } : {}),
  };
}

function sceneRow(projectId: string, s: Scene) {
  return {
    id: s.id,
    projectId,
    name: s.name,
    order: s.order,
    kind: s.kind,
    countdown: s.countdown ?? Prisma.DbNull,
    followedLayout: s.followedLayout ?? Prisma.DbNull,
    deletedAt: s.deletedAt === null ? null : new Date(s.deletedAt),
  };
}

function sourceRow(projectId: string, s: Source) {
  return { id: s.id, projectId, kind: s.kind, name: s.name, settings: s.settings as Prisma.InputJsonValue };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Writes `next` over `prev` (both of the same project): only the rows that changed are touched. */
export async function writeSceneDocument(tx: Prisma.TransactionClient, prev: SceneDocument, next: SceneDocument): Promise<void> {
  const projectId = next.projectId;
  const prevLayers = new Map(prev.scenes.flatMap((s) => s.layers.map((l) => [l.id, { sceneId: s.id, layer: l }] as const)));
  const nextLayers = new Map(next.scenes.flatMap((s) => s.layers.map((l) => [l.id, { sceneId: s.id, layer: l }] as const)));
  const prevSources = new Map(prev.sources.map((s) => [s.id, s]));
  const nextSources = new Map(next.sources.map((s) => [s.id, s]));
  const prevScenes = new Map(prev.scenes.map((s) => [s.id, s]));

  const goneLayers = [...prevLayers.keys()].filter((id) => !nextLayers.has(id));
  if (goneLayers.length) await tx.layer.deleteMany({ where: { id: { in: goneLayers } } });
  const goneSources = [...prevSources.keys()].filter((id) => !nextSources.has(id));
  if (goneSources.length) await tx.source.deleteMany({ where: { id: { in: goneSources }, projectId } });

  const newSources = next.sources.filter((s) => !prevSources.has(s.id));
  if (newSources.length) await tx.source.createMany({ data: newSources.map((s) => sourceRow(projectId, s)) });
  for (const s of next.sources) {
    const before = prevSources.get(s.id);
    if (before && !same(before, s)) await tx.source.update({ where: { id: s.id }, data: { name: s.name, settings: s.settings as Prisma.InputJsonValue } });
  }

  const newScenes = next.scenes.filter((s) => !prevScenes.has(s.id));
  if (newScenes.length) await tx.scene.createMany({ data: newScenes.map((s) => sceneRow(projectId, s)) });
  for (const s of next.scenes) {
    const before = prevScenes.get(s.id);
    if (
      before &&
      (before.name !== s.name ||
        before.order !== s.order ||
        before.deletedAt !== s.deletedAt ||
        !same(before.countdown, s.countdown) ||
        !same(before.followedLayout, s.followedLayout))
    ) {
      const { id: _id, projectId: _p, ...data } = sceneRow(projectId, s);
      await tx.scene.update({ where: { id: s.id }, data });
    }
  }

  const added = [...nextLayers.values()].filter(({ layer }) => !prevLayers.has(layer.id));
  if (added.length) await tx.layer.createMany({ data: added.map(({ sceneId, layer }) => layerRow(sceneId, layer)) });
  for (const { sceneId, layer } of nextLayers.values()) {
    const before = prevLayers.get(layer.id);
    if (before && !same(before.layer, layer)) {
      const { id: _id, ...data } = layerRow(sceneId, layer);
      await tx.layer.update({ where: { id: layer.id }, data });
    }
  }

  await tx.project.update({
    where: { id: projectId },
    data: { version: next.version, activeSceneId: next.activeSceneId, resolution: next.resolution },
  });
}

/**
 * Creates a project and its first document in one transaction: the scenes of its template (Beam:
 * the owner's camera full frame), with the logo where the owner's plan shows it.
 */
export async function createProjectWithDocument(
  db: Db,
  input: { ownerId: string; name: string; resolution: ResolutionId; template: SceneTemplateId; entitlements: Entitlements },
): Promise<{ id: string; name: string; resolution: ResolutionId; version: number; createdAt: Date }> {
  const projectId = randomUUID();
  const doc = newProjectFromTemplate(
    { projectId, resolution: input.resolution, ownerId: input.ownerId, templateId: input.template, newId: randomUUID },
    input.entitlements,
  );
  return db.$transaction(async (tx) => {
    const project = await tx.project.create({
      data: { id: projectId, ownerId: input.ownerId, name: input.name, resolution: input.resolution, version: 0 },
    });
    const empty: SceneDocument = { ...doc, activeSceneId: null, scenes: [], sources: [] };
    await writeSceneDocument(tx, empty, doc);
    return { id: project.id, name: project.name, resolution: input.resolution, version: 0, createdAt: project.createdAt };
  });
}
