import { CircleHelp, CircleUserRound, CreditCard, ExternalLink, Settings } from 'lucide-react';
import { openAccountSettings } from '../../actions/account-settings.ts';
import { IconButton } from '../../components/IconButton.tsx';
import { Menu, MenuItem, MenuLabel, MenuLinkItem, MenuSeparator } from '../../components/Menu.tsx';
import { helpLinks } from '../../config/help-links.ts';

/** Spec §2: Account Settings and Plan & Billing (one dialog, two pages), then help links. */
export function UserMenu() {
  return (
    <Menu label="Account menu" trigger={<IconButton label="Account menu" icon={<CircleUserRound size={20} aria-hidden />} />}>
      <MenuItem icon={<Settings size={16} aria-hidden />} onSelect={() => openAccountSettings('account')}>
        Account Settings
      </MenuItem>
      <MenuItem icon={<CreditCard size={16} aria-hidden />} onSelect={() => openAccountSettings('plan')}>
        Plan &amp; Billing
      </MenuItem>
      {helpLinks.length > 0 && (
        <>
          <MenuSeparator />
          <MenuLabel>Help</MenuLabel>
          {helpLinks.map((link) => (
            <MenuLinkItem key={link.id} href={link.href} icon={<CircleHelp size={16} aria-hidden />}>
              {link.label}
              <ExternalLink size={12} aria-hidden />
            </MenuLinkItem>
          ))}
        </>
      )}
    </Menu>
  );
}
