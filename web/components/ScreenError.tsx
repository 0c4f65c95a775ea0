import { Component, type ReactNode } from 'react';
import { Alert, Button, Center, Text } from '@mantine/core';

/**
 * A screen that fails to draw (its code did not arrive, say, after an update or on a dropped
 * connection) says so with a Reload, instead of leaving a blank page.
 */
export class ScreenError extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };

  static getDerivedStateFromError(error: unknown) {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <Center mih="100dvh" p="md" component="main">
        <Alert color="red" variant="light" title="This page could not be shown" role="alert" maw={480} data-testid="screen-error">
          <Text size="sm" mb="sm">
            {error.message || 'Something went wrong.'} Reload the page; if it happens again, check the connection or tell your manager.
          </Text>
          <Button size="xs" color="red.9" onClick={() => window.location.reload()}>
            Reload
          </Button>
        </Alert>
      </Center>
    );
  }
}
