import { useEffect, type ReactNode } from 'react';
import { Text, Title } from '@mantine/core';
import classes from './AuthLayout.module.css';

/** The portal's mark: a turn of the round robin. */
const Mark = ({ size = 28 }: { size?: number }) => (
  <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden focusable="false">
    <rect width="32" height="32" rx="7" fill="#fff" fillOpacity="0.16" />
    <path d="M16 6a10 10 0 1 0 9.4 6.6l-2.8 1A7 7 0 1 1 16 9v3l5-4.5L16 3z" fill="#fff" />
  </svg>
);

/**
 * The signed-out pages' frame: the product's name (and the dealership's) with one line of what
 * the portal is for beside (on a phone: above) the card that holds the form.
 */
export function AuthLayout({ title, dealership, tab, children }: { title: string; dealership?: string; tab: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${tab} · ${title}`;
  }, [tab, title]);
  return (
    <main className={classes.root}>
      <section className={classes.brand} aria-labelledby="auth-title">
        <div className={classes.brandInner}>
          <span className={classes.mark}>
            <Mark />
            {dealership || 'Business development centre'}
          </span>
          <Title order={1} id="auth-title" className={classes.title}>
            {title}
          </Title>
          <Text className={classes.tagline}>Every new customer lead goes to the next salesman on the floor, fairly and at once.</Text>
          <ul className={classes.points}>
            <li>See who is next up and your own place in line.</li>
            <li>Your leads, follow-ups and closes in one list.</li>
            <li>Your sales, commission and month at a glance.</li>
          </ul>
        </div>
      </section>
      <div className={classes.panel}>{children}</div>
    </main>
  );
}
