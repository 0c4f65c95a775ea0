import { useEffect } from 'react';
import { Title } from '@mantine/core';
import { APP_NAME } from '../api/meta';

/** A screen's heading; it also names the browser tab. */
export function PageTitle({ children }: { children: string }) {
  useEffect(() => {
    document.title = `${children} · ${APP_NAME}`;
  }, [children]);
  return (
    <Title order={1} size="h2" mb="md">
      {children}
    </Title>
  );
}
