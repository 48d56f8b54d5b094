import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { newProjectDocument, planEntitlements, sceneTemplateSummaries, type SceneDocument } from '@onair/protocol';
import { templateFit } from '../../model/plan-limits.ts';
import { TemplateList } from './TemplateDialog.tsx';

const ids = {
  projectId: '8f5b3c2e-1a4d-4b6e-9c7f-0a1b2c3d4e5f',
  sceneId: '1b2c3d4e-5f60-4718-8a9b-0c1d2e3f4a5b',
  watermarkSourceId: '2c3d4e5f-6071-4829-9bac-1d2e3f4a5b6c',
  watermarkLayerId: '3d4e5f60-7182-493a-acbd-2e3f4a5b6c7d',
};

/** A project with `count` scenes (the new project's one, plus more). */
function withScenes(count: number): SceneDocument {
  const doc = newProjectDocument({ ...ids, resolution: '720p' });
  for (let i = 1; i < count; i++)
    doc.scenes.push({
      id: `9e5f6071-8293-4a4b-bdce-3f4a5b6c7d${String(i).padStart(2, '0')}`,
      name: `Scene ${i + 1}`,
      order: i,
      kind: 'standard',
      deletedAt: null,
      layers: [],
    });
  return doc;
}

const templates = sceneTemplateSummaries();
const three = templates.find((t) => t.sceneNames.length === 3)!;
const one = templates.find((t) => t.sceneNames.length === 1)!;

describe('templates and the plan (issue 52: limits before they bite)', () => {
  it("reads the plan's maximum-scenes: a three-scene template does not fit a Free project with a scene, and says what it takes", () => {
    expect(templateFit(three, withScenes(1), planEntitlements.Free)).toEqual({
      fits: false,
      reason: 'Adds 3 scenes; your plan has room for 2 of its 3 scenes. Upgrade to Premium for up to 20 scenes, or delete 1 scene first.',
    });
    expect(templateFit(one, withScenes(1), planEntitlements.Free)).toEqual({ fits: true, reason: null });
    expect(templateFit(three, withScenes(1), planEntitlements.Premium)).toEqual({ fits: true, reason: null });
    expect(templateFit(one, withScenes(3), planEntitlements.Free).reason).toBe(
      'Adds 1 scene; your plan has room for no more of its 3 scenes. Upgrade to Premium for up to 20 scenes, or delete 1 scene first.',
    );
    expect(templateFit(three, withScenes(19), planEntitlements.Premium).reason).toBe(
      'Adds 3 scenes; your plan has room for 1 of its 20 scenes. Delete 2 scenes first.',
    );
  });

  it('marks the templates a Free project cannot add, with the reason and an Upgrade, and leaves Add on for those it can', () => {
    const html = renderToString(
      <TemplateList
        templates={templates}
        document={withScenes(1)}
        entitlements={planEntitlements.Free}
        adding={null}
        onAdd={() => undefined}
        onUpgrade={() => undefined}
      />,
    );
    const card = (id: string) => new RegExp(`<li[^>]*aria-label="${id}"[^>]*>(?:(?!</li>).)*</li>`).exec(html)?.[0] ?? '';
    expect(card(three.id)).toContain('Adds 3 scenes; your plan has room for 2 of its 3 scenes.');
    expect(card(three.id)).toMatch(/<button[^>]*disabled=""[^>]*aria-describedby="template-limit-[^"]+"[^>]*>Add<\/button>/);
    expect(card(three.id)).toContain('Upgrade');
    expect(card(one.id)).not.toContain('disabled');
    expect(card(one.id)).not.toContain('Upgrade');
  });
});
