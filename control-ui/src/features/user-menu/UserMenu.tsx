import { CircleHelp, CircleUserRound, CreditCard, ExternalLink, LogIn, LogOut, Settings } from 'lucide-react';
import { useNavigate } from 'react-router';
import { signOut } from '../../actions/session.ts';
import { IconButton } from '../../components/IconButton.tsx';
import { Menu, MenuItem, MenuLabel, MenuLinkItem, MenuSeparator } from '../../components/Menu.tsx';
import { helpLinks } from '../../config/help-links.ts';
import { useSessionStore } from '../../stores/index.ts';
import { useOpenAccountSettings } from '../account-settings/use-open-account-settings.ts';
import styles from './UserMenu.module.css';

/** Spec §2: Account Settings and Plan & Billing (two pages; from the studio, in a new tab), then help links; sign in or out. */
export function UserMenu() {
  const navigate = useNavigate();
  const openAccountSettings = useOpenAccountSettings();
  const user = useSessionStore((s) => s.user);
  const icon = user?.avatar ? <img className={styles.avatar} src={user.avatar} alt="" /> : <CircleUserRound size={20} aria-hidden />;
  return (
    <Menu label="Account menu" trigger={<IconButton label="Account menu" icon={icon} />}>
      {user && (
        <>
          <div className={styles.who}>
            <span className={styles.name}>{user.displayName || 'No name set'}</span>
            <span className={styles.email}>{user.email}</span>
          </div>
          <MenuSeparator />
        </>
      )}
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
      <MenuSeparator />
      {user ? (
        <MenuItem
          icon={<LogOut size={16} aria-hidden />}
          onSelect={() => {
            void signOut().then(() => navigate('/login'));
          }}
        >
          Sign out
        </MenuItem>
      ) : (
        <MenuItem icon={<LogIn size={16} aria-hidden />} onSelect={() => void navigate('/login')}>
          Sign in
        </MenuItem>
      )}
    </Menu>
  );
}
