import { createContext, useContext, useEffect } from 'react';
import { Title } from '@mantine/core';
import { APP_NAME } from '../api/meta';

/** Where the server draws a page, the page's tab title is told here (web/entry-server.tsx). */
export const TitleSink = createContext<((title: string) => void) | null>(null);

/** A screen's heading; it also names the browser tab. */
export function PageTitle({ children }: { children: string }) {
  const title = `${children} · ${APP_NAME}`;
  useContext(TitleSink)?.(title);
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <Title order={1} size="h2" mb="md">
      {children}
    </Title>
  );
}
