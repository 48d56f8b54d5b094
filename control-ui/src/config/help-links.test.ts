import { describe, expect, it } from 'vitest';
import { helpLinksFrom } from './help-links.ts';

describe('helpLinksFrom', () => {
  it('shows only the links the operator configured, in menu order', () => {
    expect(helpLinksFrom({ VITE_COMMUNITY_URL: 'https://chat.example.org', VITE_HELP_CENTRE_URL: 'https://help.example.org' })).toEqual([
      { id: 'help-centre', label: 'Help Centre', href: 'https://help.example.org' },
      { id: 'community', label: 'Community Chat', href: 'https://chat.example.org' },
    ]);
  });

  it('drops values that are not http(s) URLs', () => {
    expect(helpLinksFrom({ VITE_HELP_CENTRE_URL: 'javascript:alert(1)', VITE_TUTORIALS_URL: 'not a url' })).toEqual([]);
  });
});
