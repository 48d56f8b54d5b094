import { NavLink, Outlet } from 'react-router';
import { Brand } from '../components/Brand.tsx';
import { StatusIndicator } from '../features/system/StatusIndicator.tsx';
import { UserMenu } from '../features/user-menu/UserMenu.tsx';
import styles from './AppLayout.module.css';

/** The frame of the pages outside the studio: a top bar and a scrolling page. */
export function AppLayout() {
  return (
    <div className={styles.layout}>
      <header className={styles.bar}>
        <div className={styles.start}>
          <Brand />
          {/* One app, two areas: the studio and the partner network. */}
          <nav className={styles.areas} aria-label="Areas">
            <NavLink to="/" end className={({ isActive }) => `${styles.area} ${isActive ? styles.areaActive : ''}`}>
              Studio
            </NavLink>
            <NavLink to="/partner" className={({ isActive }) => `${styles.area} ${isActive ? styles.areaActive : ''}`}>
              Partner network
            </NavLink>
          </nav>
        </div>
        <div className={styles.end}>
          <StatusIndicator />
          <UserMenu />
        </div>
      </header>
      <main className={styles.main}>
        <Outlet />
      </main>
    </div>
  );
}
