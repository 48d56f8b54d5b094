import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ProjectDetails } from '@onair/protocol';
import { TooltipProvider } from '../../components/Tooltip.tsx';
import { ProjectNameView } from './ProjectName.tsx';

const project: ProjectDetails = {
  id: '00000000-0000-4000-8000-0000000000aa',
  name: 'Friday stream',
  resolution: '720p',
  version: 3,
  createdAt: '2026-01-01T00:00:00.000Z',
  role: 'host',
};

const render = (shown: ProjectDetails = project) =>
  renderToString(
    <TooltipProvider>
      <ProjectNameView project={shown} />
    </TooltipProvider>,
  );

describe('the project name in the studio header', () => {
  it('shows the name, and a rename button to a role that may update the project', () => {
    expect(render()).toContain('Friday stream');
    expect(render()).toContain('rename project');
    const viewer = render({ ...project, role: 'viewer' });
    expect(viewer).toContain('Friday stream');
    expect(viewer).not.toContain('rename project');
  });
});
