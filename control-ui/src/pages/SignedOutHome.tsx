import { Layers, MonitorPlay, Radio, Server } from 'lucide-react';
import { Link } from 'react-router';
import styles from './SignedOutHome.module.css';

const points = [
  {
    icon: <Layers size={20} aria-hidden />,
    title: 'Scenes in your browser',
    text: 'Put your camera, a shared screen, a console feed, guests, web pages and your logo into scenes, and switch between them while you are live.',
  },
  {
    icon: <Radio size={20} aria-hidden />,
    title: 'One encode, every platform',
    text: 'Your browser only sends its camera and microphone. OnAir composes and encodes the stream in the cloud once and sends it to Twitch, YouTube, Facebook and any RTMP server at the same time.',
  },
  {
    icon: <Server size={20} aria-hidden />,
    title: 'Yours to run',
    text: 'The whole studio runs on your own machine or cluster. Try it right away: the local preview destination needs no account anywhere.',
  },
];

/** The home page of a visitor who is not signed in: what OnAir is, and the way in. */
export function SignedOutHome() {
  return (
    <div className={styles.landing}>
      <section className={styles.hero} aria-labelledby="landing-title">
        <MonitorPlay size={40} className={styles.mark} aria-hidden />
        <h1 id="landing-title" className={styles.title}>
          Your live studio, in the cloud
        </h1>
        <p className={styles.lead}>
          OnAir is a streaming studio in a browser tab. Build your show from your camera, screen and guests, and go live to every platform at once without a
          powerful computer.
        </p>
        <div className={styles.actions}>
          <Link to="/login" className={styles.primary}>
            Sign in
          </Link>
          <span className={styles.note}>New here? Signing in with your e-mail creates your account.</span>
        </div>
      </section>
      <ul className={styles.points} aria-label="What OnAir does">
        {points.map((point) => (
          <li key={point.title} className={styles.point}>
            <span className={styles.icon}>{point.icon}</span>
            <h2 className={styles.pointTitle}>{point.title}</h2>
            <p className={styles.pointText}>{point.text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
